/* crc.c -- a bitwise CRC-32 over 1 KiB of generated data: shifts, xors and
 * data-dependent forward branches in a tight loop. */
static unsigned char buf[1024];

int main(void) {
    unsigned x = 1;
    for (int i = 0; i < 1024; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        buf[i] = (unsigned char)(x >> 16);
    }
    unsigned crc = 0xffffffffu;
    for (int i = 0; i < 1024; i++) {
        crc ^= buf[i];
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
    }
    crc = ~crc;
    return (int)((crc ^ (crc >> 16)) & 0xffff);
}
