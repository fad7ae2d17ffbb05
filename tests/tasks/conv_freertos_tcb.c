/* conv_freertos_tcb.c - the control blocks of conv_freertos.c, in full. */
#include <stdint.h>

#define configMAX_TASK_NAME_LEN 16
typedef struct tskTaskControlBlock {
  volatile uint32_t *pxTopOfStack;
  uint32_t xStateListItem[5];
  uint32_t xEventListItem[5];
  uint32_t uxPriority;
  uint32_t *pxStack;
  char pcTaskName[configMAX_TASK_NAME_LEN];
} TCB_t;

TCB_t tcb_idle = {.pcTaskName = "IDLE"}, tcb_sensor = {.pcTaskName = "Sensor"};
static volatile uint32_t sink;

__attribute__((noinline)) void burn(uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    sink += i;
}
