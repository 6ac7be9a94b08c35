#!/usr/bin/env bash
# Installs code-server 4.99.4 (VS Code 1.99.3 workbench + Node extension host) and Debian's Chromium into
# .vscode-test/, so the VS Code suite runs in a real VS Code on machines that cannot download a desktop build.
# Idempotent: a completed install is marked by .vscode-test/code-server/.ok. See ../shared/REAL-VSCODE.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.vscode-test/code-server"
if [ -f "$dir/.ok" ] && command -v chromium >/dev/null 2>&1; then exit 0; fi
need=()
for p in libkrb5-dev pkg-config ripgrep chromium; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
command -v node-gyp >/dev/null 2>&1 || npm install -g --no-audit --no-fund node-gyp@12 >/dev/null
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
npm init -y >/dev/null
npm install --no-audit --no-fund code-server@4.99.4 --ignore-scripts >/dev/null
cd node_modules/code-server/lib/vscode
npm install --no-audit --no-fund --omit=dev --ignore-scripts >/dev/null
mkdir -p node_modules/@vscode/ripgrep/bin && cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
for m in kerberos node-pty @parcel/watcher @vscode/spdlog @vscode/deviceid; do npm rebuild "$m" >/dev/null; done
ln -sfn node_modules node_modules.asar
(cd extensions && npm install --no-audit --no-fund --omit=dev --ignore-scripts >/dev/null)
cd "$dir" && npm rebuild argon2 >/dev/null
node node_modules/code-server/out/node/entry.js --version
touch "$dir/.ok"
