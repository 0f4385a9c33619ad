#!/bin/sh
# SessionStart as Claude Code runs it: `sh session-start.sh`, in the session's working folder, the event's JSON on stdin.
# Prints the project's briefing as hook output (GET /v1/briefing/claude-code, fetched with curl: ~25 ms where node's
# start alone takes ~70). What waits to be sent goes first: when the inbox or the spool holds anything, or where curl is
# missing, or the key, the URL or the folder is one this shell does not handle, `node hook.cjs SessionStart` does the
# work (it sends what waits for at most 1 s, then reads the briefing). A session is briefed once: a resume of one
# already briefed gets nothing more, a compaction a short briefing (scripts/brief.mjs). The service unreachable or the
# key refused: one line says so in the context, and once to the user (systemMessage). Always exits 0, within 3 s.
hooks=${0%/*}
[ "$hooks" = "$0" ] && hooks=.
umask 077
payload=
read_payload=
in_node() {
  if [ -n "$read_payload" ]; then
    printf '%s' "$payload" | node "$hooks/hook.cjs" SessionStart
    exit 0
  fi
  exec node "$hooks/hook.cjs" SessionStart
}

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
payload=$(head -c 65536)
read_payload=1
state=${spool%/*}

capture_off || {
  # Anything waiting (left by a sender that found the service down, or stopped mid-send): node sends it first.
  for f in "$inbox"/*.json "$spool"/*.json "$spool"/*.json.sending-*; do
    [ -e "$f" ] && in_node
  done
}

# The session id and what started it, from the event's JSON (ids are letters, digits and - _ .).
flat=$(printf '%s' "$payload" | tr -d '\n\r')
sid=$(printf '%s' "$flat" | sed -n 's/.*"session_id"[ 	]*:[ 	]*"\([A-Za-z0-9._-]*\)".*/\1/p')
source=$(printf '%s' "$flat" | sed -n 's/.*"source"[ 	]*:[ 	]*"\([a-z]*\)".*/\1/p')
# The budget as scripts/config.mjs reads it: a whole number of 500 to 20000, else 6000; after a compaction at most 1500.
max=${SHEET_WORKSPACE_BRIEFING_MAX_CHARS:-${CLAUDE_PLUGIN_OPTION_BRIEFING_MAX_CHARS:-}}
max=${max%.0}
case $max in '' | *[!0-9]* | 0*) max=6000 ;; esac
{ [ ${#max} -le 5 ] && [ "$max" -ge 500 ] && [ "$max" -le 20000 ]; } || max=6000
others=
case ${SHEET_WORKSPACE_BRIEFING_OTHERS:-${CLAUDE_PLUGIN_OPTION_BRIEFING_OTHERS:-}} in [Ee][Xx][Cc][Ll][Uu][Dd][Ee]) others='&others=exclude' ;; esac
case $source in
compact) [ "$max" -gt 1500 ] && max=1500 ;;
resume) [ -n "$sid" ] && [ -e "$state/briefed/$sid" ] && exit 0 ;;
esac

# A notice in the context, and to the user once per failure (scripts/brief.mjs words them the same way).
notice() {
  kind=$1
  text=$2
  shown=
  { read -r shown <"$state/notice"; } 2>/dev/null
  if [ "$shown" = "$kind" ]; then
    printf '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"%s"}}\n' "$text"
  else
    printf '%s\n' "$kind" >"$state/notice" 2>/dev/null
    printf '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"%s"},"systemMessage":"%s"}\n' "$text" "$text"
  fi
}

# -q: no ~/.curlrc; http and https only, no proxy, as node's client; the status follows the body on a line of its own.
nl='
'
out=$(printf 'header = "Authorization: Bearer %s"\nurl = "%s/v1/briefing/claude-code?project=%s&max_chars=%s%s"\n' "$key" "$url" "$project" "$max" "$others" |
  curl -q -sS --proto =http,https --noproxy '*' --max-time 2.5 -H 'Accept: application/json' -A 'sheet-workspace-claude-code/0.1.0' -w "$nl%{http_code}" -K - 2>&1)
status=$?
code=${out##*"$nl"}
briefing=${out%"$nl"*}
if [ $status -ne 0 ]; then
  case $status in
  7) why='connection refused' ;;
  28) why='no answer within 2.5 s' ;;
  6) why='host not found' ;;
  *) why="curl exit $status" ;;
  esac
  log_line "SessionStart: briefing not read: curl exit $status: $(printf '%s' "$briefing" | head -c 300)"
  notice unreachable "Sheet Workspace: the service at $url could not be reached ($why), so there is no briefing this time; what this session captures waits on this machine and is sent when the service answers again. To fix: start the service, or correct SHEET_WORKSPACE_URL (plugin option url)."
  exit 0
fi
case $code in
401 | 403)
  log_line "SessionStart: briefing not read: $code"
  notice rejected "Sheet Workspace: the service at $url refused the API key ($code), so there is no briefing this time; what this session captures waits on this machine and is sent once the service accepts that key. To fix: set a valid key with the sessions and todos scopes in SHEET_WORKSPACE_API_KEY (plugin option api_key)."
  ;;
200)
  case $briefing in
  '{"hookSpecificOutput":{"hookEventName":"SessionStart",'*)
    printf '%s\n' "$briefing"
    rm -f "$state/notice"
    if [ -n "$sid" ]; then mkdir -p "$state/briefed" 2>/dev/null && : >"$state/briefed/$sid"; fi
    ;;
  *) log_line "SessionStart: briefing not read: not the service's hook output" ;;
  esac
  ;;
*)
  log_line "SessionStart: briefing not read: $code"
  notice unreachable "Sheet Workspace: the service at $url could not be reached (HTTP $code), so there is no briefing this time; what this session captures waits on this machine and is sent when the service answers again. To fix: start the service, or correct SHEET_WORKSPACE_URL (plugin option url)."
  ;;
esac
exit 0
