#!/usr/bin/env bash
# Fetches Mesa 25.0.7's lavapipe (Debian bookworm-backports' mesa-vulkan-drivers, plus the libdrm it needs)
# into a private directory and prints, as its last line, the Vulkan ICD manifest to give the Vulkan loader:
#   export VK_ICD_FILENAMES="$(scripts/fetch_lavapipe.sh)"
#   export LD_LIBRARY_PATH="$(dirname "$VK_ICD_FILENAMES")/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
#
# Why: DirectML binds its tensors through descriptor tables. Wine 8.0's vkd3d (1.6) accepts a descriptor table
# only when its base lies in a heap it registered, and d3d12_descriptor_heap_create registers heaps only when
# the Vulkan device has VK_EXT_descriptor_indexing. Debian 12's lavapipe (Mesa 22.3) lacks it, so every DirectML
# dispatch fails with "Invalid heap for base descriptor" and runs without its UAVs. Mesa 25's lavapipe has it
# (and 256 bytes of push constants, DirectML needs 80). Nothing of the system changes: apt runs with a private
# source list, list and cache directories; packages are unpacked with dpkg-deb -x into the cache directory
# (default ~/.cache/dmltool/lavapipe, DMLTOOL_CACHE_DIR overrides ~/.cache/dmltool).
set -euo pipefail
mesa_version="25.0.7-2~bpo12+1"
libdrm_version="2.4.123-1~bpo12+1"
root="${DMLTOOL_CACHE_DIR:-$HOME/.cache/dmltool}/lavapipe/$mesa_version"
manifest="$root/lvp_icd.x86_64.json"

if [ ! -f "$manifest" ] || [ ! -f "$root/lib/libvulkan_lvp.so" ]; then
  apt_dir="$root/apt"
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/sources" "$apt_dir/cache/archives/partial" "$apt_dir/debs"
  cat > "$apt_dir/sources/backports.sources" <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  apt_opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$apt_dir/sources"
            -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
            -o APT::Sandbox::User=root -qq)
  echo "fetching Mesa $mesa_version lavapipe from bookworm-backports ..." >&2
  apt-get "${apt_opts[@]}" update >&2
  # apt checks each .deb against the signed Release file's hashes.
  (cd "$apt_dir/debs" && apt-get "${apt_opts[@]}" download "mesa-vulkan-drivers=$mesa_version" \
      "libdrm2=$libdrm_version" "libdrm-amdgpu1=$libdrm_version" >&2)
  unpacked="$apt_dir/unpacked"
  rm -rf "$unpacked" "$root/lib"
  for deb in "$apt_dir"/debs/*.deb; do dpkg-deb -x "$deb" "$unpacked"; done
  mkdir -p "$root/lib"
  for lib in libvulkan_lvp.so libdrm.so.2 libdrm_amdgpu.so.1; do
    cp -L "$unpacked/usr/lib/x86_64-linux-gnu/$lib" "$root/lib/$lib"
  done
  rm -rf "$unpacked" "$apt_dir/debs" "$apt_dir/cache"
  # The packaged manifest names the library without a path; this one names our copy.
  cat > "$manifest" <<EOF
{
    "ICD": {
        "api_version": "1.4.305",
        "library_path": "$root/lib/libvulkan_lvp.so"
    },
    "file_format_version": "1.0.0"
}
EOF
fi
echo "$manifest"
