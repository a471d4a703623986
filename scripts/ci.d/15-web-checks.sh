#!/usr/bin/env bash
# The pages' static checks (README, "Embed" and "Languages"), a second or two: Public/embed.js within its budget of
# 10 KB gzipped (scripts/check-embed-size), and every language's catalog holding every key a page or the component
# uses (scripts/check-i18n). Python 3's standard library only.
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/check-embed-size
scripts/check-i18n
