#!/usr/bin/env bash
# Writes ledger.tar.gz beside this script: a ledger as a previous release of Stride wrote it,
# kept as a test fixture of the upgrade to identities without device addresses.
#
# That release (by default cc44e44, the last commit before the change) identified a record by
# its attributes as written, the HKDevice memory address included, so the same history
# exported twice was appended twice. The ledger holds a 3-day generated export, then the same
# export written again as a later export prints it (new addresses, another offset): every
# record with an address twice, doubled steps. A quiet day (2024-03-10: 3,000 steps from the
# phone, exported twice) earned a 5,000-step award it should not have. A default shoe, a
# check-in and a spend of all but one point complete it.
#
# Usage: make-ledger.sh [COMMIT]   (needs git, Swift, and ~6 minutes to build that release;
#        STRIDE_PREVIOUS=/path/to/its/stride make-ledger.sh uses one built already)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
commit=${1:-cc44e44}
work=$(mktemp -d)
trap 'git -C "$repo" worktree remove --force "$work/old" 2>/dev/null || true; rm -rf "$work"' EXIT

old=${STRIDE_PREVIOUS:-}
if [ -z "$old" ]; then
    git -C "$repo" worktree add --detach "$work/old" "$commit" >/dev/null
    (cd "$work/old" && swift build -c release --product stride >/dev/null)
    old="$work/old/.build/release/stride"
fi
(cd "$repo" && swift build -c release --product stride-sample >/dev/null)
sample="$(cd "$repo" && swift build -c release --show-bin-path)/stride-sample"

"$sample" write "$work/export.zip" --days 3 --start 2024-03-04
"$sample" reexport "$work/export.zip" "$work/later.xml" --offset=+0900 --days-later 30
ledger="$work/ledger"
"$old" --ledger "$ledger" init --time-zone Europe/Paris
"$old" --ledger "$ledger" shoes add Pegasus --default --at 2024-03-01T08:00:00+01:00
"$old" --ledger "$ledger" ingest --quiet "$work/export.zip"
"$old" --ledger "$ledger" ingest --quiet "$work/later.xml"
phone='&lt;&lt;HKDevice: 0x2837e2df0&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone12,1, software:17.1&gt;'
{
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo '<HealthData locale="fr_FR">'
    echo ' <ExportDate value="2024-03-11 20:00:00 +0100"/>'
    for hour in 09 13 18; do
        echo " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"iPhone\" sourceVersion=\"17.1\" device=\"$phone\" unit=\"count\" creationDate=\"2024-03-10 $hour:30:00 +0100\" startDate=\"2024-03-10 $hour:00:00 +0100\" endDate=\"2024-03-10 $hour:20:00 +0100\" value=\"1000\"/>"
    done
    echo '</HealthData>'
} > "$work/quiet-day.xml"
"$sample" reexport "$work/quiet-day.xml" "$work/quiet-day-later.xml" --offset=+0900 --days-later 30
"$old" --ledger "$ledger" ingest --quiet "$work/quiet-day.xml"
"$old" --ledger "$ledger" ingest --quiet "$work/quiet-day-later.xml"
"$old" --ledger "$ledger" checkin --at 2024-03-11T08:00:00+01:00
balance=$("$old" --ledger "$ledger" points --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["balance"])')
"$old" --ledger "$ledger" points spend $((balance - 1)) --reason "a new pair of socks" --at 2024-03-11T09:00:00+01:00
"$old" --ledger "$ledger" stats
# A compact copy (LMDB's own), so that the fixture holds no free pages.
mkdir -p "$work/compact"
"$old" --ledger "$ledger" backup "$work/compact/ledger"
tar -czf "$here/ledger.tar.gz" -C "$work/compact" ledger
echo "Wrote $here/ledger.tar.gz ($(stat -c %s "$here/ledger.tar.gz") bytes) with the release at $commit."
