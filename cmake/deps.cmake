# Every dependency comes from Debian 12's packages (see README: the set-up commands install them). The Windows
# build (docs/directml-and-windows.md: Windows) takes HDF5, Google Benchmark and GoogleTest from scripts/windows_deps.sh's prefix (or
# vcpkg with MSVC) and the header-only libraries and DirectX-Headers as on Linux.
find_package(Threads REQUIRED)

# Links host header-only folders (e.g. /usr/include/nlohmann) into one build-tree include directory. A cross build
# must not put the host's /usr/include itself on the include path: its C library headers would shadow MinGW's.
function(dmltool_host_headers target root)
  set(include_dir ${CMAKE_BINARY_DIR}/host-headers/${target})
  foreach(folder IN LISTS ARGN)
    if(NOT EXISTS ${root}/${folder})
      message(FATAL_ERROR "${root}/${folder} not found (needed for ${target}; Debian package, see scripts/build_windows.sh)")
    endif()
    file(MAKE_DIRECTORY ${include_dir})
    file(CREATE_LINK ${root}/${folder} ${include_dir}/${folder} COPY_ON_ERROR SYMBOLIC)
  endforeach()
  add_library(${target} INTERFACE IMPORTED GLOBAL)
  target_include_directories(${target} SYSTEM INTERFACE ${include_dir})
endfunction()

if(CMAKE_CROSSCOMPILING)
  # Header-only libraries: the toolchain searches only the target's prefixes; Debian's host packages serve as is.
  set(DMLTOOL_HOST_HEADERS_ROOT /usr/include CACHE PATH "Host folder holding nlohmann/ and CLI/ (cross builds)")
  find_package(nlohmann_json 3.10 QUIET)
  if(NOT TARGET nlohmann_json::nlohmann_json)
    dmltool_host_headers(nlohmann_json::nlohmann_json ${DMLTOOL_HOST_HEADERS_ROOT} nlohmann)
  endif()
  find_package(CLI11 QUIET)
  if(NOT TARGET CLI11::CLI11)
    dmltool_host_headers(CLI11::CLI11 ${DMLTOOL_HOST_HEADERS_ROOT} CLI)
  endif()
else()
  find_package(nlohmann_json 3.10 REQUIRED)
  find_package(CLI11 REQUIRED)
endif()
find_package(benchmark REQUIRED)
find_package(GTest REQUIRED)
find_package(HDF5 REQUIRED COMPONENTS C)
if(NOT WIN32)
  find_package(PkgConfig REQUIRED)
endif()
if(DMLTOOL_ENABLE_GPU AND NOT WIN32)
  # DirectX-Headers: d3d12.h plus the WSL adapter headers; vkd3d implements D3D12 on Vulkan.
  pkg_check_modules(DIRECTX_HEADERS REQUIRED IMPORTED_TARGET DirectX-Headers)
  pkg_check_modules(VKD3D REQUIRED IMPORTED_TARGET libvkd3d libvkd3d-utils)
  find_package(Vulkan)
elseif(DMLTOOL_ENABLE_GPU)
  # Windows: d3d12.dll and dxgi.dll implement the API; the declarations come from DirectX-Headers, which is newer
  # than MinGW's own d3d12.h (and the same headers as on Linux). vcpkg's directx-headers port has a config file;
  # otherwise Debian's directx-headers-dev (DMLTOOL_DIRECTX_HEADERS_ROOT/{directx,dxguids}) serves.
  find_package(directx-headers CONFIG QUIET)
  add_library(DirectX-Headers::Headers INTERFACE IMPORTED)
  if(TARGET Microsoft::DirectX-Headers)
    target_link_libraries(DirectX-Headers::Headers INTERFACE Microsoft::DirectX-Headers)
  else()
    set(DMLTOOL_DIRECTX_HEADERS_ROOT /usr/include CACHE PATH "Folder holding DirectX-Headers' directx/ and dxguids/")
    if(NOT EXISTS ${DMLTOOL_DIRECTX_HEADERS_ROOT}/directx/d3d12.h OR
       NOT EXISTS ${DMLTOOL_DIRECTX_HEADERS_ROOT}/dxguids/dxguids.h)
      message(FATAL_ERROR "DirectX-Headers not found in ${DMLTOOL_DIRECTX_HEADERS_ROOT} (Debian: directx-headers-dev; "
                          "vcpkg: directx-headers; or set DMLTOOL_DIRECTX_HEADERS_ROOT)")
    endif()
    dmltool_host_headers(dmltool_directx_headers ${DMLTOOL_DIRECTX_HEADERS_ROOT} directx dxguids)
    target_link_libraries(DirectX-Headers::Headers INTERFACE dmltool_directx_headers)
  endif()
endif()
