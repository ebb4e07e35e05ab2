# Sourced by the scripts that take third-party binaries from npm packages (scripts/fetch_directml.sh,
# scripts/fetch_onnxruntime.sh); defines one function.
#
# npm_pack DIR PACKAGE@VERSION...: writes each package's tarball into DIR with `npm pack`, which checks it against
# the registry's sha512 integrity; no `npm install`, so no package script ever runs. Installs Debian's npm first
# where it is missing (a fresh CI machine). npm keeps its own download cache (~/.npm), so the two scripts' shared
# onnxruntime-node tarball (about 113 MB) is downloaded once.
npm_pack() {
  local dir=$1
  shift
  if ! command -v npm >/dev/null; then
    local sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends npm
  fi
  (cd "$dir" && npm pack --silent --loglevel=error "$@" >/dev/null)
}
