/*
 * conv_freertos.c - FreeRTOS's convention without FreeRTOS: a
 * `pxCurrentTCB` of type `TCB_t *volatile` whose struct has the name in
 * `pcTaskName`, not at offset 0. The pointer is defined in this unit,
 * where the control block is only declared (as a kernel's port layer
 * might see it); conv_freertos_tcb.c defines it in full: the name's
 * offset must be found in the other unit. main switches between two
 * tasks a few times by storing the pointer (a cooperative switch).
 */
#include <stdint.h>
#include <stdio.h>

typedef struct tskTaskControlBlock TCB_t;
extern TCB_t tcb_idle, tcb_sensor;
TCB_t *volatile pxCurrentTCB;
void burn(uint32_t n);

int main(void) {
  for (int i = 0; i < 3; i++) {
    pxCurrentTCB = &tcb_sensor;
    burn(300);
    pxCurrentTCB = &tcb_idle;
    burn(100);
  }
  printf("conv_freertos: done\n");
  return 0;
}
