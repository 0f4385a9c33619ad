#!/bin/sh
# SessionStart as Claude Code runs it: `sh session-start.sh`, in the session's working folder. Prints the project's
# briefing as hook output (GET /v1/briefing/claude-code, fetched with curl: ~25 ms where node's start alone takes ~70)
# and starts the detached sender when captured events or requests wait. Where curl is missing, or the key, the URL or
# the folder is one this shell does not handle, `node hook.cjs SessionStart` does the same work. Always exits 0, within
# 3 s: curl gives up after 2.5 s, and what it could not read is logged, never printed.
hooks=${0%/*}
[ "$hooks" = "$0" ] && hooks=.
umask 077
in_node() { exec node "$hooks/hook.cjs" SessionStart; }

key=${SHEET_WORKSPACE_API_KEY:-${CLAUDE_PLUGIN_OPTION_API_KEY:-}}
url=${SHEET_WORKSPACE_URL:-${CLAUDE_PLUGIN_OPTION_URL:-http://127.0.0.1:8787}}
# Quoted into curl's config (never its arguments: other users see those), so nothing that needs escaping.
case $key$url in '' | *[!!-~]* | *'"'* | *\\*) in_node ;; esac
case $url in http://* | https://*) ;; *) in_node ;; esac
[ -n "$key" ] || in_node
command -v curl >/dev/null 2>&1 || in_node
. "$hooks/sender.sh"
find_state || in_node
# Another user's state folder, or one others can write to: node says why and sends nothing from it.
state_ok || in_node
while :; do case $url in */) url=${url%/} ;; *) break ;; esac; done
# The physical folder, as Claude Code passes it to the capture hooks (a symlinked path would name another project).
project=$(PWD=$(pwd -P) LC_ALL=C awk -f "$hooks/project.awk") || in_node

capture_off || {
  # Anything waiting (left by a sender that found the service down, or stopped mid-send): a sender sends it beside
  # the briefing.
  for f in "$inbox"/*.json "$spool"/*.json "$spool"/*.json.sending-*; do
    if [ -e "$f" ]; then
      start_sender
      break
    fi
  done
}

# -q: no ~/.curlrc; http and https only, no proxy, as node's client; a 4xx or 5xx answer prints nothing (-f), and
# only the service's hook output is printed.
briefing=$(printf 'header = "Authorization: Bearer %s"\nurl = "%s/v1/briefing/claude-code?project=%s&max_chars=10000"\n' "$key" "$url" "$project" |
  curl -q -sS -f --proto =http,https --noproxy '*' --max-time 2.5 -H 'Accept: application/json' -A 'sheet-workspace-claude-code/0.1.0' -K - 2>&1)
status=$?
case $status:$briefing in
0:'{"hookSpecificOutput":{"hookEventName":"SessionStart",'*) printf '%s\n' "$briefing" ;;
0:*) log_line "SessionStart: briefing not read: not the service's hook output" ;;
*) log_line "SessionStart: briefing not read: curl exit $status: $(printf '%s' "$briefing" | head -c 300)" ;;
esac
exit 0
