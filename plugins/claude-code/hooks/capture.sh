#!/bin/sh
# The capture hooks (PostToolUse, TaskCreated, TaskCompleted, PreCompact, SessionEnd) as Claude Code runs them:
# `sh capture.sh <event>`, the event's JSON on stdin. The event is kept in the inbox beside the spool and a detached
# `node hook.cjs flush` sends it, so the assistant waits for this shell (a few ms), not for node's start (~70 ms).
# Always exits 0. The inbox's file format, its bound and the sender lock: scripts/inbox.mjs.
event=${1:-}
hooks=${0%/*}
[ "$hooks" = "$0" ] && hooks=.
. "$hooks/sender.sh"
capture_off && exit 0
[ -n "${SHEET_WORKSPACE_API_KEY:-}${CLAUDE_PLUGIN_OPTION_API_KEY:-}" ] || exit 0
# Without a home, node finds the state folder.
find_state || exec node "$hooks/hook.cjs" "$event"
# The event goes with the service URL and (a fingerprint of) the key it is captured under: only a sender with the same
# sends it (scripts/owner.mjs). A key or URL with spaces or other bytes this shell does not trim as node does: node.
key=${SHEET_WORKSPACE_API_KEY:-${CLAUDE_PLUGIN_OPTION_API_KEY:-}}
url=${SHEET_WORKSPACE_URL:-${CLAUDE_PLUGIN_OPTION_URL:-http://127.0.0.1:8787}}
case $key$url in *[!!-~]*) exec node "$hooks/hook.cjs" "$event" ;; esac
while :; do case $url in */) url=${url%/} ;; *) break ;; esac; done
key_fingerprint "$key" || exec node "$hooks/hook.cjs" "$event"

umask 077
[ -d "$inbox" ] || mkdir -p "$inbox" 2>/dev/null || exit 0
# Another user's state folder, or one others can write to, is not used (SessionStart tells the user why).
state_ok || exit 0
set -- "$inbox"/*.json
if [ $# -ge 1000 ]; then
  # No sender has run for a long while (is node on PATH?): what waits stays, nothing more is kept.
  log_line "capture.sh $event: inbox full (1000 events waiting), event not kept"
  exit 0
fi

# Named by nanoseconds since 1970, so the sender takes events in order (where date has no %N: seconds, then the pid).
now=$(date +%s%N 2>/dev/null)
case $now in '' | *[!0-9]*) now=$(date +%s)000000000 ;; esac
pid=0000000000$$
name=$now-${pid#"${pid%??????????}"}.json
nl='
'
project=${SHEET_WORKSPACE_PROJECT:-}
capture=${SHEET_WORKSPACE_CAPTURE:-}
if { printf '%s\n%s\n%s\nowner %s %s\n' "$event" "${project%%"$nl"*}" "${capture%%"$nl"*}" "$fp" "$url" && head -c 1048576; } >"$inbox/.tmp-$name" 2>/dev/null &&
  mv -f "$inbox/.tmp-$name" "$inbox/$name" 2>/dev/null; then :; else
  rm -f "$inbox/.tmp-$name"
  exit 0
fi

# A live sender takes this event too (it looks again before it lets go of the lock); else one is started, detached.
start_sender
exit 0
