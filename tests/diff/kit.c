/*
 * kit - exercises the target kit itself (crt0.S, tally.ld, tally/target.h)
 * for the differential tests:
 *
 *   kit args A B ...   prints argc and every argv[i] (argv[0] is the ELF path)
 *   kit uart CODE      interleaves printf (semihosting) and UART output,
 *                      then ends through tally_exit(CODE) (test finisher)
 *   kit heap           malloc/free, thread-local errno, .data and .bss
 *   kit size [N]       TALLY_ITERS(7): prints the size argument
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tally/target.h>

static int initialised = 42;            /* .data */
static uint32_t zeroed[1024];           /* .bss */

static int cmd_args(int argc, char **argv)
{
    printf("argc %d\n", argc);
    for (int i = 1; i < argc; i++)      /* argv[0] differs by path only */
        printf("argv[%d] = '%s'\n", i, argv[i]);
    printf("argv[argc] %s\n", argv[argc] == NULL ? "NULL" : "not NULL");
    return 0;
}

static int cmd_uart(int argc, char **argv)
{
    int code = argc > 2 ? atoi(argv[2]) : 0;
    for (int i = 0; i < 3; i++) {
        printf("semihosting line %d\n", i);
        fflush(stdout);
        tally_uart_puts("uart line ");
        tally_uart_putc((char)('0' + i));
        tally_uart_putc('\n');
    }
    printf("exit %d through the test finisher\n", code);
    tally_exit(code);
}

static int cmd_heap(void)
{
    uint32_t sum = 0;
    for (size_t i = 0; i < sizeof zeroed / sizeof zeroed[0]; i++)
        sum |= zeroed[i];
    printf(".data %d, .bss %s\n", initialised, sum == 0 ? "zero" : "NOT ZERO");
    extern char __heap_start[], __heap_end[];
    char *blocks[16];
    for (int i = 0; i < 16; i++) {
        blocks[i] = malloc((size_t)(1000 * (i + 1)));
        if (!blocks[i] || blocks[i] < __heap_start || blocks[i] >= __heap_end) {
            printf("malloc %d: bad block\n", i);
            return 1;
        }
        memset(blocks[i], i, (size_t)(1000 * (i + 1)));
    }
    int ok = 1;
    for (int i = 0; i < 16; i++) {
        for (int j = 0; j < 1000 * (i + 1); j++)
            ok &= blocks[i][j] == (char)i;
        free(blocks[i]);
    }
    printf("16 blocks allocated, filled, checked, freed: %s\n", ok ? "ok" : "CORRUPTED");
    errno = 0;
    void *huge = malloc((size_t)512 << 20);     /* more than the board has */
    printf("512 MiB malloc: %s, errno %s\n", huge ? "succeeded?!" : "NULL",
           errno == ENOMEM ? "ENOMEM" : "other");
    return ok && !huge ? 0 : 1;
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "";
    if (!strcmp(cmd, "args"))
        return cmd_args(argc, argv);
    if (!strcmp(cmd, "uart"))
        return cmd_uart(argc, argv);
    if (!strcmp(cmd, "heap"))
        return cmd_heap();
    if (!strcmp(cmd, "size")) {
        argc--;
        argv++;
        printf("size %lu\n", TALLY_ITERS(7));
        return 0;
    }
    printf("usage: kit args|uart CODE|heap|size [N]\n");
    return 2;
}
