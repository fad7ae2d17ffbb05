/*
 * The page's files, compiled in by embed.cmake (serve_assets_data.c in the
 * build folder): looked up by their path in the page's address.
 */
#include <string.h>

#include "serve.h"

extern const serve_asset serve_assets_table[];

const serve_asset *serve_asset_find(const char *path) {
  for (const serve_asset *a = serve_assets_table; a->path; a++)
    if (strcmp(a->path, path) == 0)
      return a;
  return NULL;
}
