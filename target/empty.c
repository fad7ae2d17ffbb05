/*
 * empty - a program that does nothing: returns 0 from main().
 *
 * Not a workload: bench/run.py times it to measure each simulator's fixed
 * start-up and exit cost, which it subtracts from the workloads' times.
 */
int main(void)
{
    return 0;
}
