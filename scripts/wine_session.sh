# Sourced by scripts/test_windows.sh and scripts/test_directml_wine.sh: the environment a run of Windows programs
# under Wine needs on a headless Debian 12 machine (docs/directml-and-windows.md: Windows).
# - Display: Wine's DXGI needs an X display (without one CreateDXGIFactory1 fails with DXGI_ERROR_UNSUPPORTED),
#   so when DISPLAY is unset one Xvfb serves the whole session (one X server, not xvfb-run per Wine call); it is
#   killed when the sourcing script exits.
# - Vulkan: Mesa 25's lavapipe from scripts/fetch_lavapipe.sh (default). Wine 8.0's vkd3d registers descriptor
#   heaps only on devices with VK_EXT_descriptor_indexing, which Debian 12's lavapipe (Mesa 22.3) lacks, and then
#   rejects every descriptor table. DMLTOOL_WINDOWS_LAVAPIPE=system keeps the host's ICD.
# Expects the repository root as the current directory.
if [ -z "${DISPLAY:-}" ]; then
  # On a fresh machine nothing has installed Xvfb yet when this is sourced (the Windows build stages install their
  # packages later): without it DISPLAY would name no server and every DXGI call would fail (seen: a clean-clone
  # run where all Windows GPU tests skipped and the cases stage found "no GPU device").
  command -v Xvfb >/dev/null 2>&1 || scripts/install_deps.sh xvfb xauth >/dev/null
  for wine_session_display in $(seq 90 99); do
    [ -e "/tmp/.X11-unix/X$wine_session_display" ] || [ -e "/tmp/.X$wine_session_display-lock" ] || break
  done
  Xvfb ":$wine_session_display" -nolisten tcp -screen 0 640x480x24 >/dev/null 2>&1 &
  wine_session_xvfb_pid=$!
  trap 'kill "$wine_session_xvfb_pid" 2>/dev/null || true' EXIT
  export DISPLAY=":$wine_session_display"
  for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$wine_session_display" ] && break; sleep 0.1; done
  if [ ! -e "/tmp/.X11-unix/X$wine_session_display" ]; then
    echo "wine_session.sh: Xvfb :$wine_session_display did not start: Wine's DXGI would find no adapter" >&2
    return 1
  fi
fi
if [ "${DMLTOOL_WINDOWS_LAVAPIPE:-mesa25}" = mesa25 ]; then
  VK_ICD_FILENAMES="$(scripts/fetch_lavapipe.sh | tail -n 1)"
  export VK_ICD_FILENAMES
  export LD_LIBRARY_PATH="$(dirname "$VK_ICD_FILENAMES")/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
