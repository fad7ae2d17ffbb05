/*
 * dhry - Dhrystone's procedure structure, written for tally.
 *
 * Reinhold Weicker's Dhrystone 2.1 is defined by its procedures: main's
 * loop calls Proc_1 ... Proc_8 and Func_1 ... Func_3 in a fixed pattern,
 * on a pair of linked records, an enumeration, two global arrays and
 * 30-character strings. This program follows that published structure --
 * the same procedures under the same names, called the same number of
 * times per pass with the same arguments, doing the same kind of work
 * (record copies, pointer assignments, an enumeration switch, array
 * stores, character and string compares) -- so that per-procedure profiles
 * can be set beside the ones papers report for Dhrystone. It is this
 * project's own code, not the benchmark's source: the strings differ, the
 * record layout is ours, and it does not time itself or report
 * "Dhrystones per second" (tally counts the cycles).
 *
 * Per pass, as in Dhrystone 2.1: Proc_1, Proc_2, Proc_3, Proc_4, Proc_5,
 * Proc_8 once; Proc_6 once; Proc_7 three times; Func_1 three times; Func_2
 * once (one strcmp); Func_3 once. Every procedure is kept out of line and
 * out of inter-procedural analysis (noipa), so a profile shows each one
 * under its own name, as the paper's MicroBlaze build did.
 *
 * Self-check: as in the original, every global and every local of main ends
 * in a state that follows from the number of passes alone (e.g.
 * arr_2_glob[8][7] == passes + 10); main compares each with its expected
 * value and prints FAIL on any mismatch.
 *
 * Size parameter: passes (default 30000).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tally/target.h>

#define PROC __attribute__((noinline, noipa))

typedef enum { IDENT_1, IDENT_2, IDENT_3, IDENT_4, IDENT_5 } enumeration;

typedef char str_30[31];

/* Dhrystone's record: a link, a discriminant and (for the one variant the
 * program uses) an enumeration, an integer and a 30-character string. */
typedef struct rec {
    struct rec *ptr_comp;
    enumeration discr;
    enumeration enum_comp;
    int int_comp;
    str_30 str_comp;
} rec;

static rec *ptr_glob, *next_ptr_glob;
static int int_glob;
static int bool_glob;
static char ch_1_glob, ch_2_glob;
static int arr_1_glob[50];
static int arr_2_glob[50][50];

int Func_1(char ch_1, char ch_2);
int Func_2(const char *s1, const char *s2);
int Func_3(enumeration e);
void Proc_1(rec *p);
void Proc_2(int *ip);
void Proc_3(rec **pp);
void Proc_4(void);
void Proc_5(void);
void Proc_6(enumeration e, enumeration *ep);
void Proc_7(int a, int b, int *out);
void Proc_8(int *a1, int (*a2)[50], int i1, int i2);

/* Proc_7: out = b + (a + 2). */
PROC void Proc_7(int a, int b, int *out)
{
    int t = a + 2;
    *out = b + t;
}

/* Func_3: is the enumeration IDENT_3? */
PROC int Func_3(enumeration e)
{
    enumeration local = e;
    return local == IDENT_3;
}

/* Proc_6: maps an enumeration to another through a switch. */
PROC void Proc_6(enumeration e, enumeration *ep)
{
    *ep = e;
    if (!Func_3(e))
        *ep = IDENT_4;
    switch (e) {
    case IDENT_1:
        *ep = IDENT_1;
        break;
    case IDENT_2:
        *ep = int_glob > 100 ? IDENT_1 : IDENT_4;
        break;
    case IDENT_3:
        *ep = IDENT_2;
        break;
    case IDENT_4:
        break;
    case IDENT_5:
        *ep = IDENT_3;
        break;
    }
}

/* Proc_3: follows the global record's link and updates its integer. */
PROC void Proc_3(rec **pp)
{
    if (ptr_glob != NULL)
        *pp = ptr_glob->ptr_comp;
    Proc_7(10, int_glob, &ptr_glob->int_comp);
}

/* Proc_1: a record copy through a pointer, then work on the linked one. */
PROC void Proc_1(rec *p)
{
    rec *next = p->ptr_comp;
    *p->ptr_comp = *ptr_glob;               /* the structure assignment */
    p->int_comp = 5;
    next->int_comp = p->int_comp;
    next->ptr_comp = p->ptr_comp;
    Proc_3(&next->ptr_comp);
    if (next->discr == IDENT_1) {
        next->int_comp = 6;
        Proc_6(p->enum_comp, &next->enum_comp);
        next->ptr_comp = ptr_glob->ptr_comp;
        Proc_7(next->int_comp, 10, &next->int_comp);
    } else {
        *p = *p->ptr_comp;
    }
}

/* Proc_2: a loop that runs once while ch_1_glob is 'A'. */
PROC void Proc_2(int *ip)
{
    int local = *ip + 10;
    enumeration e = IDENT_2;
    do {
        if (ch_1_glob == 'A') {
            local -= 1;
            *ip = local - int_glob;
            e = IDENT_1;
        }
    } while (e != IDENT_1);
}

/* Proc_4 and Proc_5: character and boolean globals. */
PROC void Proc_4(void)
{
    int b = ch_1_glob == 'A';
    bool_glob = b | bool_glob;
    ch_2_glob = 'B';
}

PROC void Proc_5(void)
{
    ch_1_glob = 'A';
    bool_glob = 0;
}

/* Proc_8: stores into a one- and a two-dimensional global array. */
PROC void Proc_8(int *a1, int (*a2)[50], int i1, int i2)
{
    int loc = i1 + 5;
    a1[loc] = i2;
    a1[loc + 1] = a1[loc];
    a1[loc + 30] = loc;
    for (int k = loc; k <= loc + 1; k++)
        a2[loc][k] = loc;
    a2[loc][loc - 1] += 1;
    a2[loc + 20][loc] = a1[loc];
    int_glob = 5;
}

/* Func_1: compares two characters; on equality remembers the first. */
PROC int Func_1(char ch_1, char ch_2)
{
    char c1 = ch_1;
    char c2 = c1;
    if (c2 != ch_2)
        return IDENT_1;
    ch_1_glob = c1;
    return IDENT_2;
}

/* Func_2: compares two strings, a character pair first, then strcmp. */
PROC int Func_2(const char *s1, const char *s2)
{
    int loc = 2;
    char ch = 0;
    while (loc <= 2)
        if (Func_1(s1[loc], s2[loc + 1]) == IDENT_1) {
            ch = 'A';
            loc += 1;
        }
    if (ch >= 'W' && ch < 'Z')
        loc = 7;
    if (ch == 'R')
        return 1;
    if (strcmp(s1, s2) > 0) {
        loc += 7;
        int_glob = loc;
        return 1;
    }
    return 0;
}

/* The strings: 30 characters, a long common prefix (strcmp walks it), the
 * first one smaller, and character 2 of one unlike character 3 of the other
 * (Func_2 compares that pair first). */
static const char S_SOME[] = "SOFT-CORE TALLY RUN, ANY LABEL";
static const char S_ONE[] = "SOFT-CORE TALLY RUN, 1ST LABEL";
static const char S_TWO[] = "SOFT-CORE TALLY RUN, 2ND LABEL";
static const char S_THREE[] = "SOFT-CORE TALLY RUN, 3RD LABEL";

int main(int argc, char **argv)
{
    long passes = (long)TALLY_ITERS(30000);
    if (passes < 1 || passes > 100000000) {
        printf("dhry: passes must be 1 to 100000000\n");
        return 1;
    }
    next_ptr_glob = malloc(sizeof(rec));
    ptr_glob = malloc(sizeof(rec));
    if (!next_ptr_glob || !ptr_glob) {
        printf("dhry: FAIL out of memory\n");
        return 1;
    }
    ptr_glob->ptr_comp = next_ptr_glob;
    ptr_glob->discr = IDENT_1;
    ptr_glob->enum_comp = IDENT_3;
    ptr_glob->int_comp = 40;
    strcpy(ptr_glob->str_comp, S_SOME);
    str_30 str_1_loc, str_2_loc;
    strcpy(str_1_loc, S_ONE);
    arr_2_glob[8][7] = 10;

    int int_1_loc = 0, int_2_loc = 0, int_3_loc = 0;
    enumeration enum_loc = IDENT_1;
    for (long run = 1; run <= passes; run++) {
        Proc_5();
        Proc_4();
        int_1_loc = 2;
        int_2_loc = 3;
        strcpy(str_2_loc, S_TWO);
        enum_loc = IDENT_2;
        bool_glob = !Func_2(str_1_loc, str_2_loc);
        while (int_1_loc < int_2_loc) {
            int_3_loc = 5 * int_1_loc - int_2_loc;
            Proc_7(int_1_loc, int_2_loc, &int_3_loc);
            int_1_loc += 1;
        }
        Proc_8(arr_1_glob, arr_2_glob, int_1_loc, int_3_loc);
        Proc_1(ptr_glob);
        for (char ch = 'A'; ch <= ch_2_glob; ch++) {
            if (enum_loc == (enumeration)Func_1(ch, 'C')) {
                Proc_6(IDENT_1, &enum_loc);
                strcpy(str_2_loc, S_THREE);
                int_2_loc = (int)run;
                int_glob = (int)run;
            }
        }
        int_2_loc = int_2_loc * int_1_loc;
        int_1_loc = int_2_loc / int_3_loc;
        int_2_loc = 7 * (int_2_loc - int_3_loc) - int_1_loc;
        Proc_2(&int_1_loc);
    }

    /* The final state, as Dhrystone 2.1 documents it for any number of
     * passes (our strings in place of its own). */
    struct { const char *name; long got, want; } checks[] = {
        {"int_glob", int_glob, 5},
        {"bool_glob", bool_glob, 1},
        {"ch_1_glob", ch_1_glob, 'A'},
        {"ch_2_glob", ch_2_glob, 'B'},
        {"arr_1_glob[8]", arr_1_glob[8], 7},
        {"arr_2_glob[8][7]", arr_2_glob[8][7], passes + 10},
        {"ptr_glob->discr", ptr_glob->discr, 0},
        {"ptr_glob->enum_comp", ptr_glob->enum_comp, 2},
        {"ptr_glob->int_comp", ptr_glob->int_comp, 17},
        {"next_ptr_glob->discr", next_ptr_glob->discr, 0},
        {"next_ptr_glob->enum_comp", next_ptr_glob->enum_comp, 1},
        {"next_ptr_glob->int_comp", next_ptr_glob->int_comp, 18},
        {"links equal", ptr_glob->ptr_comp == next_ptr_glob->ptr_comp, 1},
        {"int_1_loc", int_1_loc, 5},
        {"int_2_loc", int_2_loc, 13},
        {"int_3_loc", int_3_loc, 7},
        {"enum_loc", enum_loc, 1},
    };
    uint32_t sum = 0;
    for (size_t k = 0; k < sizeof checks / sizeof checks[0]; k++) {
        if (checks[k].got != checks[k].want) {
            printf("dhry: FAIL %s = %ld, should be %ld\n", checks[k].name, checks[k].got,
                   checks[k].want);
            return 1;
        }
        sum = tally_mix32(sum ^ (uint32_t)checks[k].got);
    }
    if (strcmp(ptr_glob->str_comp, S_SOME) || strcmp(next_ptr_glob->str_comp, S_SOME) ||
        strcmp(str_1_loc, S_ONE) || strcmp(str_2_loc, S_TWO)) {
        printf("dhry: FAIL strings changed\n");
        return 1;
    }
    printf("dhry: %ld passes, every global and local as expected\n", passes);
    printf("dhry: checksum %08lx\n", (unsigned long)sum);
    printf("dhry: OK\n");
    return 0;
}
