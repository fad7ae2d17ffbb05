/* A guest that sleeps in wfi, a timer interrupt 2^52 ticks away (about 14
 * years of simulated time at the 10 MHz timebase): no instruction retires
 * while it sleeps, so no instruction budget ends it; the cycle budget must. */
#include <stdint.h>

int main(void) {
  volatile uint32_t *mtimecmp = (volatile uint32_t *)0x02004000u; /* the CLINT's, hart 0 */
  mtimecmp[0] = 0;
  mtimecmp[1] = 0x00100000u;
  __asm__ volatile("csrw mie, %0" : : "r"(0x80u)); /* MTIE; mstatus.MIE stays 0: wfi wakes, no trap */
  for (;;)
    __asm__ volatile("wfi");
}
