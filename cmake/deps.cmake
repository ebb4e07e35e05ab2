# Every dependency comes from Debian 12's packages (see README: the set-up commands install them).
find_package(Threads REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(benchmark REQUIRED)
find_package(GTest REQUIRED)
find_package(HDF5 REQUIRED COMPONENTS C)
find_package(PkgConfig REQUIRED)
if(DMLTOOL_ENABLE_GPU)
  # DirectX-Headers: d3d12.h plus the WSL adapter headers; vkd3d implements D3D12 on Vulkan.
  pkg_check_modules(DIRECTX_HEADERS REQUIRED IMPORTED_TARGET DirectX-Headers)
  pkg_check_modules(VKD3D REQUIRED IMPORTED_TARGET libvkd3d libvkd3d-utils)
  find_package(Vulkan)
endif()
