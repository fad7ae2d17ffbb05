/* CRC-32 (bitwise and with a table) over a generated buffer. */
#include <stdint.h>
static uint8_t buf[600];
static uint32_t table[256];
int main(void) {
  uint32_t x = 12345;
  for (int i = 0; i < 600; i++) {
    x = x * 1103515245u + 12345u;
    buf[i] = (uint8_t)(x >> 16);
  }
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  uint32_t a = ~0u, b = ~0u;
  for (int i = 0; i < 600; i++) a = table[(a ^ buf[i]) & 0xff] ^ (a >> 8);
  for (int i = 0; i < 100; i++) {
    b ^= buf[i];
    for (int k = 0; k < 8; k++) b = (b >> 1) ^ (0xedb88320u & -(b & 1));
  }
  return (~a ^ ~b) == 0 ? 1 : 0;
}
