/* Named .ini files (core models, boards) found in a colon-separated list of
 * folders, as $TALLY_CORES_PATH and $TALLY_BOARDS_PATH give them: the
 * first folder that has NAME.ini wins. */
#ifndef TALLY_UTIL_SEARCH_PATH_H
#define TALLY_UTIL_SEARCH_PATH_H

#include <stdbool.h>
#include <stddef.h>

/* Whether s ends with suffix. */
bool search_path_ends_with(const char *s, const char *suffix);

/* The names (file names less ".ini", at most 63 bytes, hidden files and
 * non-regular files left out) of the .ini files in dirs, each once, sorted;
 * at most max. Folders that cannot be read are skipped. */
size_t search_path_list(const char *dirs, char names[][64], size_t max);

/* path = the first DIR/NAME.ini of dirs that is a regular file: 0, or -1
 * when no folder has one. */
int search_path_find(const char *name, const char *dirs, char *path, size_t pathlen);

#endif
