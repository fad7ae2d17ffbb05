/*
 * bad_tasks.c - a task pointer that goes wrong: it points outside RAM
 * (0x00001000), then to a control block whose name is not a string
 * (unprintable bytes, no NUL), then to a good one, through the kit's
 * crt0 and picolibc. tally profile --tasks=current must say so for each,
 * name them by their pointer, and still measure the run: the program's
 * own work and its exit status are unchanged.
 */
#include <stdint.h>
#include <stdio.h>

struct task {
  uint32_t id;
  char name[8];
};

struct task tcb_bad_name = {1, {1, 2, 3, 4, 5, 6, 7, 8}};
struct task tcb_good = {2, "good"};
struct task *volatile current;
static volatile uint32_t sink;

__attribute__((noinline)) static void spin(uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    sink += i;
}

int main(void) {
  current = (struct task *)(uintptr_t)0x00001000u;
  spin(100);
  current = &tcb_bad_name;
  spin(200);
  current = &tcb_good;
  spin(300);
  printf("bad_tasks: %lu\n", (unsigned long)sink);
  return 0;
}
