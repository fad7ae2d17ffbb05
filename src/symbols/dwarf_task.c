/*
 * The current-task pointer and the task name's member, from DWARF
 * (dwarf_task.h).
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dwarf_task.h"

static int fail(tally_error *err, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(tally_error *err, int rc, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return rc;
}

/* The type a DIE refers to (DW_AT_type); false for void. */
static bool type_of(Dwarf_Die *die, Dwarf_Die *out) {
  Dwarf_Attribute a;
  return dwarf_attr_integrate(die, DW_AT_type, &a) && dwarf_formref_die(&a, out);
}

/* Past typedefs and qualifiers; false for void. */
static bool strip(Dwarf_Die *t) {
  for (;;) {
    int tag = dwarf_tag(t);
    if (tag != DW_TAG_typedef && tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
        tag != DW_TAG_restrict_type && tag != DW_TAG_atomic_type)
      return true;
    Dwarf_Die n;
    if (!type_of(t, &n))
      return false;
    *t = n;
  }
}

static bool is_declaration(Dwarf_Die *d) {
  bool flag = false;
  Dwarf_Attribute a;
  return dwarf_attr(d, DW_AT_declaration, &a) && dwarf_formflag(&a, &flag) == 0 && flag;
}

/* A struct defined in full: a declaration (`struct tskTCB;` in a unit
 * that only points to it) is looked up by name in every unit. */
static bool complete_struct(Dwarf *dw, Dwarf_Die *t) {
  if (!is_declaration(t))
    return true;
  const char *name = dwarf_diename(t);
  if (!name)
    return false;
  Dwarf_Off off = 0, next;
  size_t hsize;
  while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
    Dwarf_Die cu, c;
    if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_child(&cu, &c) == 0) {
      do {
        if (dwarf_tag(&c) == dwarf_tag(t) && !is_declaration(&c) && dwarf_diename(&c) &&
            strcmp(dwarf_diename(&c), name) == 0) {
          *t = c;
          return true;
        }
      } while (dwarf_siblingof(&c, &c) == 0);
    }
    off = next;
  }
  return false;
}

/* The member `name` of struct or union t: its offset and type. */
static bool member(Dwarf *dw, Dwarf_Die *t, const char *name, uint32_t *off, Dwarf_Die *type) {
  if (!complete_struct(dw, t))
    return false;
  Dwarf_Die c;
  if (dwarf_child(t, &c) != 0)
    return false;
  do {
    if (dwarf_tag(&c) != DW_TAG_member || !dwarf_diename(&c) || strcmp(dwarf_diename(&c), name) != 0)
      continue;
    Dwarf_Attribute a;
    Dwarf_Word w = 0;
    if (dwarf_attr(&c, DW_AT_data_member_location, &a) && dwarf_formudata(&a, &w) != 0)
      return false; /* a location expression: not a plain offset */
    *off = (uint32_t)w;
    return type_of(&c, type);
  } while (dwarf_siblingof(&c, &c) == 0);
  return false;
}

/* An array's element count (its first dimension); 0 when not known. */
static uint32_t array_len(Dwarf_Die *t) {
  Dwarf_Die c;
  if (dwarf_child(t, &c) != 0)
    return 0;
  do {
    if (dwarf_tag(&c) != DW_TAG_subrange_type)
      continue;
    Dwarf_Attribute a;
    Dwarf_Word w;
    if (dwarf_attr(&c, DW_AT_count, &a) && dwarf_formudata(&a, &w) == 0)
      return (uint32_t)w;
    if (dwarf_attr(&c, DW_AT_upper_bound, &a) && dwarf_formudata(&a, &w) == 0)
      return (uint32_t)w + 1;
    return 0;
  } while (dwarf_siblingof(&c, &c) == 0);
  return 0;
}

/* A char type (one byte, a character or integer base type)? */
static bool is_char(Dwarf_Die *t) {
  if (!strip(t) || dwarf_tag(t) != DW_TAG_base_type)
    return false;
  Dwarf_Attribute a;
  Dwarf_Word size;
  return dwarf_attr(t, DW_AT_byte_size, &a) && dwarf_formudata(&a, &size) == 0 && size == 1;
}

/* A global variable definition named `name` with a static address. */
static bool find_variable(Dwarf *dw, const char *name, Dwarf_Die *var, uint32_t *addr) {
  Dwarf_Off off = 0, next;
  size_t hsize;
  while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
    Dwarf_Die cu, c;
    if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_child(&cu, &c) == 0) {
      do {
        if (dwarf_tag(&c) != DW_TAG_variable)
          continue;
        const char *n = dwarf_diename(&c);
        Dwarf_Attribute a;
        if (!n || strcmp(n, name) != 0 || !dwarf_attr(&c, DW_AT_location, &a))
          continue;
        Dwarf_Op *ops;
        size_t nops;
        if (dwarf_getlocation(&a, &ops, &nops) == 0 && nops == 1 && ops[0].atom == DW_OP_addr) {
          *var = c;
          *addr = (uint32_t)ops[0].number;
          return true;
        }
      } while (dwarf_siblingof(&c, &c) == 0);
    }
    off = next;
  }
  return false;
}

static int resolve(Dwarf *dw, const char *file, const char *path, const char *name_member, sym_task_place *out,
                   tally_error *err) {
  char ident[128];
  size_t n = strcspn(path, ".[");
  if (n == 0 || n >= sizeof ident)
    return fail(err, -1, "task pointer `%s': it must begin with a variable's name", path);
  memcpy(ident, path, n);
  ident[n] = 0;
  Dwarf_Die var, t;
  uint32_t addr;
  if (!find_variable(dw, ident, &var, &addr))
    return fail(err, 0, "%s has no variable `%s' in its debug information", file, ident);
  if (!type_of(&var, &t))
    return fail(err, -1, "%s: the variable `%s' has no type", file, ident);
  const char *p = path + n;
  while (*p) {
    if (!strip(&t))
      return fail(err, -1, "task pointer `%s': `%.*s' is void", path, (int)(p - path), path);
    if (*p == '.') {
      p++;
      size_t m = strcspn(p, ".[");
      if (m == 0 || m >= sizeof ident)
        return fail(err, -1, "task pointer `%s': a member name is missing after `.'", path);
      memcpy(ident, p, m);
      ident[m] = 0;
      int tag = dwarf_tag(&t);
      uint32_t off;
      Dwarf_Die mt;
      if ((tag != DW_TAG_structure_type && tag != DW_TAG_union_type) || !member(dw, &t, ident, &off, &mt))
        return fail(err, -1, "task pointer `%s': `%.*s' has no member `%s'", path, (int)(p - 1 - path), path, ident);
      addr += off;
      t = mt;
      p += m;
    } else if (*p == '[') {
      char *end;
      errno = 0;
      unsigned long i = strtoul(p + 1, &end, 10);
      if (end == p + 1 || *end != ']' || errno)
        return fail(err, -1, "task pointer `%s': an index must be a decimal number in brackets", path);
      if (dwarf_tag(&t) != DW_TAG_array_type)
        return fail(err, -1, "task pointer `%s': `%.*s' is not an array", path, (int)(p - path), path);
      uint32_t len = array_len(&t);
      if (len && i >= len)
        return fail(err, -1, "task pointer `%s': index %lu is past the array's %u elements", path, i, (unsigned)len);
      Dwarf_Die et;
      Dwarf_Word esize;
      if (!type_of(&t, &et) || dwarf_aggregate_size(&et, &esize) != 0)
        return fail(err, -1, "task pointer `%s': the element size of `%.*s' is not known", path, (int)(p - path),
                    path);
      addr += (uint32_t)(i * esize);
      t = et;
      p = end + 1;
    } else {
      return fail(err, -1, "task pointer `%s': unexpected `%c'", path, *p);
    }
  }
  if (!strip(&t) || dwarf_tag(&t) != DW_TAG_pointer_type)
    return fail(err, -1, "task pointer `%s' is not a pointer", path);
  Dwarf_Die tcb;
  if (!type_of(&t, &tcb) || !strip(&tcb) ||
      (dwarf_tag(&tcb) != DW_TAG_structure_type && dwarf_tag(&tcb) != DW_TAG_union_type))
    return fail(err, -1, "task pointer `%s' does not point to a struct (the task's control block)", path);
  *out = (sym_task_place){.ptr_addr = addr};
  snprintf(out->tcb_type, sizeof out->tcb_type, "%s", dwarf_diename(&tcb) ? dwarf_diename(&tcb) : "(anonymous)");
  uint32_t off;
  Dwarf_Die nt;
  if (!name_member || !member(dw, &tcb, name_member, &off, &nt))
    return 1;
  if (!strip(&nt))
    return fail(err, -1, "the name member `%s' of struct %s is void", name_member, out->tcb_type);
  Dwarf_Die el;
  if (dwarf_tag(&nt) == DW_TAG_array_type && type_of(&nt, &el) && is_char(&el)) {
    out->name_len = array_len(&nt);
  } else if (dwarf_tag(&nt) == DW_TAG_pointer_type && type_of(&nt, &el) && is_char(&el)) {
    out->name_is_ptr = true;
  } else {
    return fail(err, -1, "the name member `%s' of struct %s is neither a char array nor a char pointer", name_member,
                out->tcb_type);
  }
  out->has_name = true;
  out->name_off = off;
  return 1;
}

int sym_task_place_find(const char *file, const char *path, const char *name_member, sym_task_place *out,
                        tally_error *err) {
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fail(err, -1, "%s: cannot open: %s", file, strerror(errno));
  Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
  int rc;
  if (!dw)
    rc = fail(err, 0, "%s has no debug information (build it with -g): %s", file, dwarf_errmsg(-1));
  else
    rc = resolve(dw, file, path, name_member, out, err);
  if (dw)
    dwarf_end(dw);
  close(fd);
  return rc;
}
