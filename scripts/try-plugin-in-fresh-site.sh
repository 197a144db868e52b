#!/usr/bin/env bash
# Pack the api-suite plugin, create a fresh Strapi site (5.54.0, or STRAPI_VERSION: the plugin
# supports 5.30.0 to 5.54.0), install the tarball there and check that the site boots with the
# plugin's routes answering. Usage:
#   [STRAPI_VERSION=5.30.0] bash scripts/try-plugin-in-fresh-site.sh [/tmp/where]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-$(mktemp -d)}"
port="${PORT:-1339}"
version="${STRAPI_VERSION:-5.54.0}"

echo "[try] building and packing the plugin"
(cd "$root/src/plugins/api-suite" && npm run build >/dev/null && npm pack --pack-destination "$work" >/dev/null)
tarball="$work/strapi-plugin-api-suite-$(node -p "require('$root/src/plugins/api-suite/package.json').version").tgz"

echo "[try] creating a fresh Strapi $version site in $work/site"
(cd "$work" && npx -y "create-strapi-app@$version" site --no-run --skip-cloud --typescript --use-npm --no-example --no-git-init --skip-db --install >/dev/null)

echo "[try] installing $tarball"
(cd "$work/site" && npm install "$tarball" >/dev/null)
cat > "$work/site/config/plugins.ts" <<'PLUGINS'
export default () => ({
  'api-suite': { enabled: true },
});
PLUGINS

echo "[try] building and starting the site on port $port"
(cd "$work/site" && npm run build >/dev/null)
(cd "$work/site" && PORT=$port NODE_ENV=development npm run start >"$work/site.log" 2>&1) &
trap 'pkill -f "$work/site" || true' EXIT
for _ in $(seq 1 90); do
  if answer=$(curl -sf "http://127.0.0.1:$port/api/api-suite/health"); then
    echo "[try] GET /api/api-suite/health -> $answer"
    exit 0
  fi
  sleep 1
done
echo "[try] the site did not answer; its log:" >&2
tail -50 "$work/site.log" >&2
exit 1
