#!/usr/bin/env bash
# Installs what the real-VS-Code e2e test (test/e2e/vscode-*.test.ts) drives, offline from
# the npm registry and Debian's packages only (shared reference: vscode-e2e.md): Debian's chromium,
# and code-server 4.100.3 (the last release that runs on Node 20) in its own directory outside the
# clone, cached by version so later runs skip the ~1 minute install. Prints the install directory.
# Idempotent; safe to run on every CI run.
set -euo pipefail

CODE_SERVER_VERSION=4.100.3
# The nested @vscode/ripgrep of that code-server downloads rg from the internet unless its cache
# holds this exact archive (its version and the VERSION in its lib/postinstall.js).
RIPGREP_PACKAGE_VERSION=1.15.11
RIPGREP_ARCHIVE=ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz

cache_root="${CLAUDE_IDE_BRIDGE_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/claude-ide-bridge-e2e}"
install_dir="$cache_root/code-server-$CODE_SERVER_VERSION"
bin="$install_dir/node_modules/.bin/code-server"

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
# kerberos (a code-server dependency) builds from source and needs gssapi's headers.
[ -e /usr/include/gssapi/gssapi.h ] || missing+=(libkrb5-dev)
if [ "${#missing[@]}" -gt 0 ]; then
  $sudo apt-get update >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}" >&2
fi

if [ -x "$bin" ] && [ -f "$install_dir/.complete" ]; then
  echo "$install_dir"
  exit 0
fi

rm -rf "$install_dir"
mkdir -p "$install_dir"
rg_cache="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-$RIPGREP_PACKAGE_VERSION"
if [ ! -f "$rg_cache/$RIPGREP_ARCHIVE" ]; then
  staging="$(mktemp -d)"
  mkdir -p "$rg_cache"
  cp "$(command -v rg)" "$staging/rg"
  tar czf "$rg_cache/$RIPGREP_ARCHIVE" -C "$staging" rg
  rm -rf "$staging"
fi
cd "$install_dir"
echo '{"name":"code-server-host","private":true}' >package.json
# Root: its postinstall refuses to run without unsafe-perm. npx inside node-pty's postinstall
# fetches node-gyp from the npm registry and needs yes=true not to stop and ask.
npm_config_unsafe_perm=true npm_config_yes=true npm install --no-audit --no-fund --loglevel=error \
  "code-server@$CODE_SERVER_VERSION" >&2 </dev/null
XDG_CONFIG_HOME="$(mktemp -d)" "$bin" --version >&2
touch "$install_dir/.complete"
echo "$install_dir"
