/*
 * conv_zephyr.c - Zephyr's convention without Zephyr: the running thread
 * is `_kernel.cpus[0].current`, a `struct k_thread *` whose name is the
 * char array `name` (CONFIG_THREAD_NAME). The path goes through a member,
 * an array element (not the first, to test the element size: cpus has
 * two, the first is used) and a member again.
 */
#include <stdint.h>
#include <stdio.h>

struct k_thread {
  uint32_t base[6];
  void *switch_handle;
  int32_t prio;
  char name[32];
};

struct _cpu {
  uint32_t nested;
  void *irq_stack;
  struct k_thread *current;
  struct k_thread *idle_thread;
  uint8_t id;
};

struct z_kernel {
  struct _cpu cpus[2];
  uint32_t ready_q[4];
};

struct z_kernel _kernel;
struct k_thread thread_main = {.name = "main"}, thread_net = {.name = "net_rx"};
static volatile uint32_t sink;

__attribute__((noipa)) static void burn(uint32_t n) { /* its callers cannot see it leaves _kernel alone */
  for (uint32_t i = 0; i < n; i++)
    sink += i;
}

int main(void) {
  for (int i = 0; i < 3; i++) {
    _kernel.cpus[0].current = &thread_net;
    burn(200);
    _kernel.cpus[0].current = &thread_main;
    burn(100);
  }
  printf("conv_zephyr: done\n");
  return 0;
}
