# Sourced by capture.sh and session-start.sh (`. sender.sh`): whether capture is on, where the spool and the inbox
# are, and how the detached sender is started. Needs $hooks (this folder).

# SHEET_WORKSPACE_CAPTURE as scripts/config.mjs reads it: 0, false, off or no (any case) turn capture off.
capture_off() {
  case ${SHEET_WORKSPACE_CAPTURE:-} in 0 | [Ff][Aa][Ll][Ss][Ee] | [Oo][Ff][Ff] | [Nn][Oo]) return 0 ;; esac
  return 1
}

# The spool folder as scripts/config.mjs finds it, into $spool, and the inbox beside it into $inbox; false without a home.
find_state() {
  if [ -n "${SHEET_WORKSPACE_SPOOL_DIR:-}" ]; then
    spool=$SHEET_WORKSPACE_SPOOL_DIR
    case $spool in /*) ;; *) spool=$PWD/$spool ;; esac
  elif [ -n "${XDG_STATE_HOME:-}" ]; then
    spool=$XDG_STATE_HOME/sheet-workspace/spool
  elif [ -n "${HOME:-}" ]; then
    spool=$HOME/.sheet-workspace/spool
  else
    return 1
  fi
  while :; do case $spool in */) spool=${spool%/} ;; *) break ;; esac; done
  inbox=${spool%/*}/inbox
}

# Whether the state folder, the inbox and the spool (those that exist) are this user's folders that no one else can
# write to, none a symbolic link, as scripts/state.mjs checks them: what waits in another's could be planted requests.
state_ok() {
  for d in "${spool%/*}" "$inbox" "$spool"; do
    if [ -L "$d" ]; then return 1; fi
    [ -e "$d" ] || continue
    [ -d "$d" ] && [ -O "$d" ] || return 1
  done
  [ -z "$(find "${spool%/*}" "$inbox" "$spool" -prune \( -perm -020 -o -perm -002 \) -print 2>/dev/null)" ]
}

# The fingerprint of API key $1 as scripts/owner.mjs makes it (the first 32 hex digits of
# sha256("sheet-workspace-spool:" + key)), into $fp; false where no sha256 tool is found.
key_fingerprint() {
  if command -v sha256sum >/dev/null 2>&1; then
    fp=$(printf 'sheet-workspace-spool:%s' "$1" | sha256sum 2>/dev/null)
  elif command -v shasum >/dev/null 2>&1; then
    fp=$(printf 'sheet-workspace-spool:%s' "$1" | shasum -a 256 2>/dev/null)
  else
    return 1
  fi
  fp=$(printf '%.32s' "$fp")
  case $fp in *[!0-9a-f]*) return 1 ;; esac
  [ ${#fp} -eq 32 ]
}

# `node hook.cjs flush` in its own session, so it outlives this hook and Claude Code; none while a live sender holds the
# lock (it looks at the inbox again before it lets go). A lock older than a minute is a dead sender's whose pid came
# back (after a reboot): the sender started then takes it over (scripts/inbox.mjs).
start_sender() {
  if { read -r pid <"$inbox/.sender.lock"; } 2>/dev/null && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null &&
    [ -z "$(find "$inbox/.sender.lock" -mmin +1 2>/dev/null)" ]; then return 0; fi
  if ! command -v node >/dev/null 2>&1; then
    log_line "no node on PATH: what waits in $inbox and $spool is not sent"
    return 0
  fi
  if command -v setsid >/dev/null 2>&1; then
    setsid node "$hooks/hook.cjs" flush </dev/null >/dev/null 2>&1 &
  else
    nohup node "$hooks/hook.cjs" flush </dev/null >/dev/null 2>&1 &
  fi
}

# One line in hook.log beside the spool, as scripts/config.mjs writes it (the callers umask 077: owner-only).
log_line() {
  [ -d "${spool%/*}" ] || mkdir -p "${spool%/*}" 2>/dev/null
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $*" >>"${spool%/*}/hook.log" 2>/dev/null
}
