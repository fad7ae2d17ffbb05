/* Named .ini files in a colon-separated list of folders (search_path.h). */
#include "search_path.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "array.h"

bool search_path_ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

static bool is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Copies the next colon-separated entry of *dirs into out ("" means ".")
 * and steps past it; false when there are no more. */
static bool next_dir(const char **dirs, char *out, size_t n) {
  if (!*dirs)
    return false;
  const char *colon = strchr(*dirs, ':');
  size_t len = colon ? (size_t)(colon - *dirs) : strlen(*dirs);
  snprintf(out, n, "%.*s", (int)len, len ? *dirs : ".");
  *dirs = colon ? colon + 1 : NULL;
  return true;
}

static int cmp_names(const void *a, const void *b) { return strcmp(a, b); }

/* Adds the .ini files of one folder to names[*n..max), each name once. */
static void list_dir(const char *path, char names[][64], size_t *n, size_t max) {
  DIR *d = opendir(path);
  if (!d)
    return;
  struct dirent *de;
  while ((de = readdir(d)) != NULL && *n < max) {
    size_t nl = strlen(de->d_name);
    if (nl <= 4 || nl - 4 >= 64 || !search_path_ends_with(de->d_name, ".ini") || de->d_name[0] == '.')
      continue;
    char full[4096 + 256];
    snprintf(full, sizeof full, "%s/%s", path, de->d_name);
    if (!is_file(full))
      continue;
    char stem[64];
    snprintf(stem, sizeof stem, "%.*s", (int)(nl - 4), de->d_name);
    bool dup = false;
    for (size_t i = 0; i < *n && !dup; i++)
      dup = !strcmp(names[i], stem);
    if (!dup)
      memcpy(names[(*n)++], stem, sizeof stem);
  }
  closedir(d);
}

size_t search_path_list(const char *dirs, char names[][64], size_t max) {
  size_t n = 0;
  char path[4096];
  for (const char *p = dirs; next_dir(&p, path, sizeof path);)
    list_dir(path, names, &n, max);
  sort_array(names, n, sizeof names[0], cmp_names);
  return n;
}

int search_path_find(const char *name, const char *dirs, char *path, size_t pathlen) {
  char dir[4096];
  for (const char *p = dirs; next_dir(&p, dir, sizeof dir);) {
    int len = snprintf(path, pathlen, "%s/%s.ini", dir, name);
    if (len > 0 && (size_t)len < pathlen && is_file(path))
      return 0;
  }
  return -1;
}
