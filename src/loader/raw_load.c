/* Raw binary images, as the papers' users had: bytes copied to an address. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "loader.h"

int loader_raw(core_cpu *cpu, const char *path, uint32_t addr, loaded_image *img, tally_error *err) {
  *img = (loaded_image){.entry = addr};
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err->msg, sizeof err->msg, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  uint32_t off = addr - cpu->ram_base;
  int rc = -1;
  if (off >= cpu->ram_size) {
    snprintf(err->msg, sizeof err->msg, "%s: load address 0x%08x is outside RAM (0x%08x-0x%08llx)", path, addr,
             cpu->ram_base, (unsigned long long)cpu->ram_base + cpu->ram_size);
  } else if (fseek(f, 0, SEEK_END) != 0 || ftell(f) < 0) {
    snprintf(err->msg, sizeof err->msg, "%s: cannot determine size: %s", path, strerror(errno));
  } else {
    long size = ftell(f);
    rewind(f);
    if ((unsigned long)size > cpu->ram_size - off) {
      snprintf(err->msg, sizeof err->msg, "%s: %ld bytes at 0x%08x do not fit in RAM (ends 0x%08llx)", path, size,
               addr, (unsigned long long)cpu->ram_base + cpu->ram_size);
    } else if (size == 0) {
      snprintf(err->msg, sizeof err->msg, "%s: empty file", path);
    } else if (fread(cpu->ram + off, 1, (size_t)size, f) != (size_t)size) {
      snprintf(err->msg, sizeof err->msg, "%s: read error", path);
    } else {
      img->code_lo = addr;
      img->code_hi = addr + (uint32_t)size;
      rc = 0;
    }
  }
  fclose(f);
  return rc;
}
