/* Byte and halfword work: copies, a string hash, a switch (jump table). */
#include <stdint.h>
static char text[400];
static uint16_t half[200];
static int classify(int ch) {
  switch (ch % 9) {
  case 0: return 3;
  case 1: return ch + 1;
  case 2: return ch ^ 0x55;
  case 3: return ch << 2;
  case 4: return ch >> 1;
  case 5: return -ch;
  case 6: return ch * 3;
  case 7: return 7;
  default: return 0;
  }
}
int main(void) {
  for (int i = 0; i < 400; i++) text[i] = (char)('a' + (i * 7) % 26);
  for (int i = 0; i < 200; i++) half[i] = (uint16_t)(text[2 * i] << 8 | text[2 * i + 1]);
  uint32_t h = 5381;
  for (int i = 0; i < 400; i++) h = h * 33 + (unsigned char)text[i];
  int s = 0;
  for (int i = 0; i < 200; i++) s += classify(half[i] & 0xff) + (int16_t)half[i];
  char *p = text, *q = text + 200;
  for (int i = 0; i < 100; i++) q[i] = p[i];
  return (h + (uint32_t)s) == 0 ? 1 : 0;
}
