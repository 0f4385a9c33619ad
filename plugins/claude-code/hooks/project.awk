# The project of the working directory, as scripts/project.mjs finds it, for hooks/session-start.sh: printed
# percent-encoded for a URL query. Run as `LC_ALL=C awk -f project.awk` (bytes, not characters), with PWD and
# SHEET_WORKSPACE_PROJECT in the environment. test/e2e/plugin-session-start.test.ts holds both to the same answers.
# SHEET_WORKSPACE_PROJECT, else origin's repository name, else the git top-level folder's name, else the folder's.
function trim(s) {
  sub(/^[ \t\r\n\f\v]+/, "", s)
  sub(/[ \t\r\n\f\v]+$/, "", s)
  return s
}
# Whether a file can be read (only ever asked of paths that are files in a repository, never of a folder).
function readable(file,    line, r) {
  r = (getline line < file)
  close(file)
  return r >= 0
}
function basename(p,    n, parts) {
  sub(/\/+$/, "", p)
  n = split(p, parts, "/")
  return n ? parts[n] : ""
}
function absolute(base, p) {
  return p ~ /^\// ? p : base "/" p
}
# A worktree's or submodule's .git file: "gitdir: <path>"; a worktree shares the main repository's config.
function config_of_git_file(file, root,    line, gitdir, common) {
  gitdir = ""
  while ((getline line < file) > 0) {
    if (line ~ /^gitdir:/) {
      gitdir = trim(substr(line, 8))
      break
    }
  }
  close(file)
  if (gitdir == "") return ""
  gitdir = absolute(root, gitdir)
  common = ""
  if ((getline common < (gitdir "/commondir")) > 0) common = trim(common)
  close(gitdir "/commondir")
  return (common != "" ? absolute(gitdir, common) : gitdir) "/config"
}
# url of [remote "origin"] in a git config file, or "".
function origin_url(file,    line, in_origin, name, rest, subsection, v) {
  in_origin = 0
  while ((getline line < file) > 0) {
    line = trim(line)
    if (match(line, /^\[[ \t]*[^] \t"]+/)) {
      name = trim(substr(line, 2, RLENGTH - 1))
      rest = substr(line, RLENGTH + 1)
      subsection = ""
      if (match(rest, /^[ \t]+"[^"]*"/)) {
        subsection = substr(rest, 1, RLENGTH)
        sub(/^[ \t]+"/, "", subsection)
        sub(/"$/, "", subsection)
        rest = substr(rest, RLENGTH + 1)
      }
      if (rest ~ /^[ \t]*\]/) {
        in_origin = tolower(name) == "remote" && subsection == "origin"
        continue
      }
    }
    if (in_origin && tolower(substr(line, 1, 3)) == "url" && substr(line, 4) ~ /^[ \t]*=/) {
      v = substr(line, 4)
      sub(/^[ \t]*=[ \t]*/, "", v)
      if (v ~ /^".*"$/) v = substr(v, 2, length(v) - 2)
      close(file)
      return trim(v)
    }
  }
  close(file)
  return ""
}
# ".../acme/rocket-app.git", "git@host:acme/rocket-app.git", "file:///srv/rocket-app/" -> "rocket-app".
function repo_name(url,    n, parts) {
  url = trim(url)
  sub(/[?#].*$/, "", url)
  sub(/[\\\/]+$/, "", url)
  if (length(url) >= 4 && tolower(substr(url, length(url) - 3)) == ".git") url = substr(url, 1, length(url) - 4)
  sub(/[\\\/]+$/, "", url)
  n = split(url, parts, /[\\\/:]/)
  return n ? trim(parts[n]) : ""
}
function encode(s,    i, c, out) {
  out = ""
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    out = out (c ~ /[A-Za-z0-9_.~-]/ ? c : sprintf("%%%02X", ord[c]))
  }
  return out
}
function detect(cwd,    dir, config, root, name) {
  for (dir = cwd; ; ) {
    # dir "" is the file system's root.
    if (readable(dir "/.git/config") || readable(dir "/.git/HEAD")) {
      root = dir
      config = dir "/.git/config"
      break
    }
    if (readable(dir "/.git")) {
      root = dir
      config = config_of_git_file(dir "/.git", dir)
      break
    }
    if (dir == "") break
    sub(/\/[^\/]*$/, "", dir)
  }
  if (root == "" && config == "") {
    name = basename(cwd)
    return name != "" ? name : "default"
  }
  name = config != "" ? repo_name(origin_url(config)) : ""
  if (name != "") return name
  name = basename(root)
  return name != "" ? name : "/"
}
BEGIN {
  for (i = 1; i < 256; i++) ord[sprintf("%c", i)] = i
  override = trim(ENVIRON["SHEET_WORKSPACE_PROJECT"])
  cwd = ENVIRON["PWD"]
  if (override == "" && cwd !~ /^\//) exit 1
  sub(/\/+$/, "", cwd)
  print encode(override != "" ? override : detect(cwd))
}
