/*
 * Task awareness: the running task, learned from the program's own state.
 *
 * The program keeps a pointer to the running task's control block in a
 * word of RAM (FreeRTOS's pxCurrentTCB, Zephyr's _kernel.cpus[0].current,
 * rtos_current of target/rtos). The word's chunk is watched
 * (WATCH_TASK): a store into it leaves the execution loop after the
 * storing instruction, and prof_tasks_store reads the word. Nothing else
 * is looked at while no store hits that chunk.
 *
 * Every task has a node under the root (func PROF_TASK_FUNC) and a shadow
 * stack of its own: while it does not run its frames wait in
 * prof_task.saved. So the contexts under a task's node hold exactly what
 * ran while it was the running task, and the per-task counts add up to the
 * run's.
 *
 * A trap taken while a task runs enters a context of its own, "irq:N" for
 * interrupt N, "trap:N" for exception cause N: the handler's counts are
 * not the interrupted task's. A switch the handler makes (the store of a
 * new task pointer) takes effect when the handler returns (mret): the task
 * now named resumes with its own frames; one that never ran starts with a
 * frame for the function the mret goes to. A store outside a trap handler
 * (a cooperative switch) takes effect at once, after the storing
 * instruction.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

#define TASK_FRAME_RET 1u /* a task's base frame: no return (always even) goes there */

static void note(prof_tasks *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(prof_tasks *t, const char *fmt, ...) {
  if (t->nnotes == PROF_TASK_NOTES) {
    t->notes_dropped++;
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(t->notes[t->nnotes++], sizeof t->notes[0], fmt, ap);
  va_end(ap);
}

void prof_tasks_free(prof_tasks *t) {
  if (!t)
    return;
  for (size_t i = 0; i < t->n; i++)
    free(t->v[i].saved);
  free(t->v);
  free(t->log);
  free(t);
}

/* The name of the task whose control block is at tcb; false (and a name
 * made of the address, and a note) when it cannot be read or is not a
 * string: printable characters ended by a NUL inside the field (a char
 * array filled to its end needs none). */
static bool task_name(prof_tasks *t, uint32_t tcb, char *out, size_t size) {
  snprintf(out, size, "task@0x%08x", (unsigned)tcb);
  uint8_t probe;
  if (!t->read(t->read_ctx, tcb, &probe, 1)) {
    if (t->reg >= 0)
      note(t, "the current-task register x%d holds 0x%08x, which points outside RAM", t->reg, (unsigned)tcb);
    else
      note(t, "the current-task pointer at 0x%08x holds 0x%08x, which points outside RAM", (unsigned)t->ptr_addr,
           (unsigned)tcb);
    return false;
  }
  if (!t->has_name)
    return true;
  char buf[PROF_TASK_NAME] = {0};
  uint32_t at = tcb + t->name_off;
  uint32_t cap = t->name_is_ptr || !t->name_len || t->name_len > sizeof buf - 1 ? sizeof buf - 1 : t->name_len;
  if (t->name_is_ptr) {
    uint32_t s;
    if (!t->read(t->read_ctx, at, &s, 4)) {
      note(t, "the name field `%s' of the task at 0x%08x cannot be read", t->name_member, (unsigned)tcb);
      return false;
    }
    at = s;
  }
  uint32_t got = cap;
  while (got && !t->read(t->read_ctx, at, buf, got)) /* a string near the end of RAM */
    got--;
  size_t len = 0;
  bool ok = true;
  for (; len < got && buf[len]; len++)
    if ((unsigned char)buf[len] < 0x20 || (unsigned char)buf[len] > 0x7e) {
      ok = false;
      break;
    }
  if (len == 0 || (len == got && !(!t->name_is_ptr && got == t->name_len)))
    ok = false;
  if (!ok) {
    note(t, "the name field `%s' of the task at 0x%08x (at 0x%08x) is not a string", t->name_member, (unsigned)tcb,
         (unsigned)at);
    return false;
  }
  buf[len] = 0;
  snprintf(out, size, "%s", buf);
  return true;
}

/* The task whose pointer is tcb (found by pointer and name: a control
 * block used again for another task is another task), made on first sight. */
static int task_for(prof_state *p, uint32_t tcb, bool is_trap, uint32_t first_pc) {
  prof_tasks *t = p->tasks;
  char name[PROF_TASK_NAME];
  bool bad = false;
  if (is_trap)
    snprintf(name, sizeof name, "%s:%u", tcb & 0x80000000u ? "irq" : "trap", (unsigned)(tcb & 0x7fffffffu));
  else if (!tcb)
    snprintf(name, sizeof name, "[no task]");
  else {
    for (size_t i = 0; i < t->n; i++) /* its unreadable name gave one note already */
      if (!t->v[i].is_trap && t->v[i].tcb == tcb && t->v[i].bad)
        return (int)i;
    bad = !task_name(t, tcb, name, sizeof name);
  }
  for (size_t i = 0; i < t->n; i++)
    if (t->v[i].is_trap == is_trap && t->v[i].tcb == tcb && strcmp(t->v[i].name, name) == 0)
      return (int)i;
  if (t->n == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 8;
    prof_task *v = realloc(t->v, cap * sizeof *v);
    if (!v)
      return t->running >= 0 ? t->running : 0;
    t->v = v;
    t->cap = cap;
  }
  prof_task *k = &t->v[t->n];
  *k = (prof_task){.tcb = tcb, .is_trap = is_trap, .bad = bad, .first_pc = first_pc};
  snprintf(k->name, sizeof k->name, "%s", name);
  k->node = prof_child(p, &p->root, PROF_TASK_FUNC, (uint32_t)t->n, false);
  return (int)t->n++;
}

static void log_change(prof_tasks *t, uint64_t now, int task) {
  if (t->log_full)
    return;
  if (t->nlog && t->log[t->nlog - 1].cycle == now) { /* nothing ran in between */
    t->log[t->nlog - 1].task = task;
    return;
  }
  if (t->nlog == t->log_cap) {
    size_t cap = t->log_cap ? 2 * t->log_cap : 256;
    prof_task_change *l = cap <= ((size_t)1 << 24) ? realloc(t->log, cap * sizeof *l) : NULL;
    if (!l) {
      t->log_full = true;
      t->log_full_cycle = now;
      return;
    }
    t->log = l;
    t->log_cap = cap;
  }
  t->log[t->nlog++] = (prof_task_change){now, task};
}

/* The shadow stack becomes task idx's: the running one's frames are kept
 * aside, idx's are put back. A task that never ran starts with a frame of
 * the function `target` lies in (0: none). */
static void run_as(prof_state *p, int idx, uint32_t target, uint64_t now) {
  prof_tasks *t = p->tasks;
  prof_account(p, now);
  if (t->running >= 0) {
    prof_task *o = &t->v[t->running];
    uint32_t n = p->depth - 2;
    if (n > o->saved_cap) {
      prof_frame *s = realloc(o->saved, n * sizeof *s);
      if (!s)
        n = o->saved_cap; /* out of memory: the deepest frames are lost */
      else
        o->saved = s, o->saved_cap = n;
    }
    if (n)
      memcpy(o->saved, p->stack + 2, n * sizeof *o->saved);
    o->nsaved = n;
  }
  prof_task *k = &t->v[idx];
  bool fresh = k->node->calls == 0;
  t->running = idx;
  k->node->calls++;
  if (k->is_trap || idx != t->last_task) /* a task resumed after a trap has not been switched to */
    k->switches++;
  if (!k->is_trap)
    t->last_task = idx;
  p->stack[1] = (prof_frame){k->node, TASK_FRAME_RET, UINT32_MAX};
  p->depth = 2;
  if (k->nsaved && p->cap < 2 + k->nsaved) {
    uint32_t cap = p->cap;
    while (cap < 2 + k->nsaved)
      cap *= 2;
    prof_frame *s = realloc(p->stack, cap * sizeof *s);
    if (s)
      p->stack = s, p->cap = cap;
  }
  if (k->nsaved && p->cap >= 2 + k->nsaved) {
    memcpy(p->stack + 2, k->saved, k->nsaved * sizeof *k->saved);
    p->depth = 2 + k->nsaved;
  }
  k->nsaved = 0;
  /* A handler returning into the task resumes it in the function on top
   * of its frames; if the mret goes elsewhere, those frames are not the
   * task's (its pointer was set before it ever ran, as FreeRTOS's
   * xTaskCreate does before the scheduler starts): it starts afresh in
   * the function the mret goes to. */
  if (target && !k->is_trap && p->depth > 2 && prof_crosses(p, p->stack[p->depth - 1].node->func, target))
    p->depth = 2;
  if ((fresh || p->depth == 2) && target && !k->is_trap && p->syms) {
    const sym_entry *e = sym_table_lookup(p->syms, target);
    if (!k->first_pc)
      k->first_pc = target;
    if (e)
      prof_push(p, prof_child(p, k->node, e->addr, target, false), 0, UINT32_MAX);
  }
  log_change(t, now, idx);
  prof_top_changed(p);
  if (t->on_run)
    t->on_run(t->on_run_ctx, k->name);
}

bool prof_tasks_enable(prof_state *p, const prof_task_layout *l, prof_read_fn read, void *ctx, uint64_t now) {
  if (p->tasks || p->depth != 1)
    return false;
  prof_tasks *t = calloc(1, sizeof *t);
  if (!t)
    return false;
  t->ptr_addr = l->ptr_addr;
  t->has_name = l->has_name;
  t->name_is_ptr = l->name_is_ptr;
  t->name_off = l->name_off;
  t->name_len = l->name_len;
  snprintf(t->name_member, sizeof t->name_member, "%s", l->name_member ? l->name_member : "name");
  t->read = read;
  t->read_ctx = ctx;
  t->reg = l->reg;
  t->read_reg = l->read_reg;
  t->running = -1;
  t->last_task = -1;
  p->tasks = t;
  uint32_t v = 0;
  if (t->reg >= 0)
    t->read_reg(ctx, (unsigned)t->reg, &v);
  else
    read(ctx, t->ptr_addr, &v, 4);
  t->last_ptr = v;
  t->cur = task_for(p, v, false, p->root.func); /* the code before the first switch: from the entry */
  if (!t->v) {
    p->tasks = NULL;
    prof_tasks_free(t);
    return false;
  }
  run_as(p, t->cur, 0, now);
  return true;
}

void prof_tasks_store(prof_state *p, uint64_t now) {
  prof_tasks *t = p->tasks;
  uint32_t v;
  if (!t || !t->read(t->read_ctx, t->ptr_addr, &v, 4) || v == t->last_ptr)
    return; /* another word of the watched chunk, or the same task again */
  t->last_ptr = v;
  t->cur = task_for(p, v, false, 0);
  if (t->in_trap)
    return; /* it takes effect when the handler returns */
  /* A switch outside a trap handler takes effect at once. A task that
   * never ran goes on from where the program is: it starts with the
   * frames the running one has (the same functions, under its own node),
   * so that their returns match. */
  prof_task *k = &t->v[t->cur];
  if (k->node->calls || t->running < 0 || t->cur == t->running) {
    run_as(p, t->cur, 0, now);
    return;
  }
  prof_task *o = &t->v[t->running];
  uint32_t n = p->depth - 2;
  prof_frame *copy = n ? malloc(n * sizeof *copy) : NULL;
  if (n && !copy) {
    run_as(p, t->cur, 0, now);
    return;
  }
  if (n)
    memcpy(copy, p->stack + 2, n * sizeof *copy);
  if (!k->first_pc)
    k->first_pc = o->first_pc;
  run_as(p, t->cur, 0, now);
  if (p->depth == 2 && p->cap >= 2 + n) {
    prof_node *parent = k->node;
    for (uint32_t i = 0; i < n; i++) {
      const prof_node *f = copy[i].node;
      parent = prof_child(p, parent, f->func, f->call_site, f->is_trap);
      p->stack[2 + i] = (prof_frame){parent, copy[i].ret_addr, copy[i].sp};
    }
    p->depth = 2 + n;
    prof_top_changed(p);
  }
  free(copy);
}

bool prof_tasks_trap(prof_state *p, uint32_t cause, uint32_t handler, uint64_t now) {
  prof_tasks *t = p->tasks;
  if (t->in_trap)
    return false; /* a nested trap stays in the handler's context */
  int idx = task_for(p, cause, true, handler);
  t->in_trap = true;
  run_as(p, idx, 0, now);
  return true;
}

void prof_tasks_trap_return(prof_state *p, uint32_t target, uint64_t now) {
  prof_tasks *t = p->tasks;
  if (!t->in_trap || p->depth != 2)
    return; /* still in a handler (a nested trap returned) */
  uint32_t v;
  if (t->reg >= 0 && t->read_reg(t->read_ctx, (unsigned)t->reg, &v) && v != t->last_ptr) {
    /* a register: the handler restored the task it returns to */
    t->last_ptr = v;
    t->cur = task_for(p, v, false, 0);
  }
  t->in_trap = false;
  run_as(p, t->cur, target, now);
}

const prof_task *prof_node_task(const prof_state *p, const prof_node *n) {
  if (!p->tasks || n->parent != &p->root || n->func != PROF_TASK_FUNC || n->call_site >= p->tasks->n)
    return NULL;
  return &p->tasks->v[n->call_site];
}
