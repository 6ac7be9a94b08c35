#!/usr/bin/env bash
# Installs code-server 4.99.4 (VS Code 1.99.3 workbench + Node extension host) into .vscode-test/, so the VS Code suite
# runs in a real VS Code on machines that cannot download a desktop build (Chromium, which drives it, is installed by
# scripts/setup.mjs). `npm test` runs this when needed. Idempotent: a completed install is marked by
# .vscode-test/code-server/.ok. Run as root, or set SUDO="sudo -n" for the apt-get and global npm steps.
# See ../shared/REAL-VSCODE.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.vscode-test/code-server"
if [ -f "$dir/.ok" ]; then exit 0; fi
sudo=${SUDO:-}
need=()
for p in libkrb5-dev pkg-config; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v make >/dev/null 2>&1 || need+=(make)
command -v g++ >/dev/null 2>&1 || need+=(g++)
if [ ${#need[@]} -gt 0 ]; then
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
# node-pty's install step calls `npx node-gyp`: pin one that supports Node 20.
command -v node-gyp >/dev/null 2>&1 || $sudo npm install -g --no-audit --no-fund node-gyp@12 >/dev/null
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
npm init -y >/dev/null
# Its postinstall would download ripgrep from GitHub: the steps below do its work by hand.
npm install --no-audit --no-fund code-server@4.99.4 --ignore-scripts >/dev/null
cd node_modules/code-server/lib/vscode
npm install --no-audit --no-fund --omit=dev --ignore-scripts >/dev/null
mkdir -p node_modules/@vscode/ripgrep/bin && cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
for m in kerberos node-pty @parcel/watcher @vscode/spdlog @vscode/deviceid; do npm rebuild --loglevel=error "$m" >/dev/null; done
ln -sfn node_modules node_modules.asar
(cd extensions && npm install --no-audit --no-fund --omit=dev --ignore-scripts >/dev/null)
cd "$dir" && npm rebuild --loglevel=error argon2 >/dev/null
node node_modules/code-server/out/node/entry.js --version >/dev/null
touch "$dir/.ok"
