/*
 * dvfs_svg_escape (src/dvfs/dvfs_svg.c): names from the ELF go into the
 * SVG of tally dvfs --svg; each of XML's five special characters must
 * become its entity, control characters and bytes above ASCII '?', and
 * everything else stay as it is. Expected strings written by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dvfs/dvfs.h"

static int check(const char *in, const char *want) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f)
    return 1;
  dvfs_svg_escape(f, in);
  fclose(f);
  int bad = strcmp(buf, want) != 0;
  if (bad)
    printf("FAIL: escape(\"%s\") = \"%s\", want \"%s\"\n", in, buf, want);
  free(buf);
  return bad;
}

int main(void) {
  int bad = 0;
  bad += check("", "");
  bad += check("main+0x1c", "main+0x1c");
  bad += check("a<b>&\"'", "a&lt;b&gt;&amp;&quot;&apos;");
  bad += check("&amp;", "&amp;amp;"); /* no double meaning: escaped again */
  bad += check("]]>", "]]&gt;");
  bad += check("tab\there\nnl\x7f", "tab?here?nl?");
  bad += check("caf\xc3\xa9", "caf??");
  bad += check("operator<<(std::ostream&)", "operator&lt;&lt;(std::ostream&amp;)");
  if (!bad)
    printf("svg escape ok\n");
  return bad != 0;
}
