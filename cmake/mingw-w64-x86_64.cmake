# CMake toolchain file: cross-compile dmltool (and its dependencies) for 64-bit Windows on Debian 12 with the
# mingw-w64 POSIX-threads variant (packages g++-mingw-w64-x86-64-posix, mingw-w64-x86-64-dev; std::thread and
# std::mutex need the posix variant, the win32 one lacks them in GCC 12).
#
#   cmake -G Ninja -S . -B build-windows -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake \
#         -DCMAKE_PREFIX_PATH="$(scripts/windows_deps.sh | tail -1)"
#
# - Everything is linked statically (libgcc, libstdc++, winpthread: `-static`), so the .exe files run under Wine
#   or on Windows without copying MinGW's DLLs next to them. Only Windows' own DLLs (kernel32, d3d12, ...) stay
#   dynamic, since MinGW ships import libraries only for those.
# - CMAKE_CROSSCOMPILING_EMULATOR is scripts/wine.sh, so try_run(), add_test() on Windows targets and
#   gtest_discover_tests() run the .exe files under Wine (headless, own prefix: see that script).
# - Libraries and headers are looked up only in the MinGW sysroot (/usr/x86_64-w64-mingw32) and in the prefixes
#   given by CMAKE_PREFIX_PATH / CMAKE_FIND_ROOT_PATH (e.g. the windows_deps.sh prefix); programs come from the host.
# Override the compiler prefix with -DMINGW_TRIPLET=... (default x86_64-w64-mingw32) if ever needed.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR AMD64)

if(NOT MINGW_TRIPLET)
  set(MINGW_TRIPLET x86_64-w64-mingw32)
endif()
# try_compile() projects re-read this file: pass our settings through to them.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES MINGW_TRIPLET CMAKE_PREFIX_PATH)

find_program(CMAKE_C_COMPILER NAMES ${MINGW_TRIPLET}-gcc-posix REQUIRED)
find_program(CMAKE_CXX_COMPILER NAMES ${MINGW_TRIPLET}-g++-posix REQUIRED)
find_program(CMAKE_RC_COMPILER NAMES ${MINGW_TRIPLET}-windres REQUIRED)
find_program(CMAKE_AR NAMES ${MINGW_TRIPLET}-gcc-ar-posix ${MINGW_TRIPLET}-ar REQUIRED)
find_program(CMAKE_RANLIB NAMES ${MINGW_TRIPLET}-gcc-ranlib-posix ${MINGW_TRIPLET}-ranlib REQUIRED)
find_program(CMAKE_NM NAMES ${MINGW_TRIPLET}-gcc-nm-posix ${MINGW_TRIPLET}-nm)
find_program(CMAKE_OBJCOPY NAMES ${MINGW_TRIPLET}-objcopy)
find_program(CMAKE_OBJDUMP NAMES ${MINGW_TRIPLET}-objdump)
find_program(CMAKE_STRIP NAMES ${MINGW_TRIPLET}-strip)

# Search the MinGW sysroot plus every prefix the caller hands over in CMAKE_PREFIX_PATH (cache or environment).
# With mode ONLY, CMake re-roots search paths under each CMAKE_FIND_ROOT_PATH entry, except paths already inside
# one: listing the prefixes as roots keeps them searched as-is, while the host's /usr stays out of reach.
set(CMAKE_FIND_ROOT_PATH /usr/${MINGW_TRIPLET})
foreach(_dmltool_prefix IN LISTS CMAKE_PREFIX_PATH)
  list(APPEND CMAKE_FIND_ROOT_PATH "${_dmltool_prefix}")
endforeach()
if(DEFINED ENV{CMAKE_PREFIX_PATH})
  string(REPLACE ":" ";" _dmltool_env_prefixes "$ENV{CMAKE_PREFIX_PATH}")
  list(APPEND CMAKE_FIND_ROOT_PATH ${_dmltool_env_prefixes})
  unset(_dmltool_env_prefixes)
endif()
unset(_dmltool_prefix)
list(REMOVE_DUPLICATES CMAKE_FIND_ROOT_PATH)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config must not hand out the host's (Linux) .pc files.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/${MINGW_TRIPLET}/lib/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

# The Windows HDF5 from scripts/windows_deps.sh is static only. Without this, CMake's FindHDF5 does not take its
# hdf5-config.cmake (it wants a shared hdf5 target) and falls back to the HOST's h5cc wrapper, which hands out
# Linux paths (/usr/include/hdf5/serial, -lcrypto -lcurl ...).
if(NOT DEFINED HDF5_USE_STATIC_LIBRARIES)
  set(HDF5_USE_STATIC_LIBRARIES ON)
endif()

# Self-contained executables: static libgcc, libstdc++ and winpthread.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static-libgcc -static-libstdc++")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "-static-libgcc -static-libstdc++")

# Windows programs run under Wine (repo's scripts/wine.sh): try_run(), tests, gtest_discover_tests().
get_filename_component(_dmltool_repo "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(CMAKE_CROSSCOMPILING_EMULATOR "${_dmltool_repo}/scripts/wine.sh" CACHE FILEPATH
    "Runs Windows executables on the build host (headless Wine)")
unset(_dmltool_repo)
