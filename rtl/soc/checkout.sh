# Sourced by rtl/soc/ci.sh and ci_vexriscv.sh: where a core's RTL is read
# from. The core's RTL is never copied into the source tree.
#
#   rtl_checkout LABEL SRC DIR PATH
#
# PATH is the file's path in the core's repository. SRC is a checkout (the
# file at SRC/PATH, or at SRC/ itself), or a bare git dir, whose HEAD's file
# is extracted into DIR once per commit (DIR/.commit holds the commit it
# came from). Sets rtl to the directory holding the file, prints "LABEL from
# SRC [at COMMIT]" and returns 0; returns 1 when SRC is none of these.
rtl_checkout() {
  _src=$2 _dir=$3 _path=$4 _file=${4##*/}
  if [ -f "$_src/$_file" ]; then
    rtl=$_src
  elif [ -f "$_src/$_path" ]; then
    rtl=$_src/${_path%/*}
  elif git --git-dir="$_src" rev-parse HEAD >/dev/null 2>&1; then
    _commit=$(git --git-dir="$_src" rev-parse HEAD)
    if [ "$(cat "$_dir/.commit" 2>/dev/null)" != "$_commit" ]; then
      rm -rf "$_dir" && mkdir -p "$_dir"
      git --git-dir="$_src" show "HEAD:$_path" > "$_dir/$_file"
      echo "$_commit" > "$_dir/.commit"
    fi
    rtl=$_dir
  else
    return 1
  fi
  echo "$1 from $_src$(test -f "$rtl/.commit" && echo " at $(cat "$rtl/.commit")")"
}
