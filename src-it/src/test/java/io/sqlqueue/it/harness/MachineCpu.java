package io.sqlqueue.it.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The whole machine's busy CPU time, from /proc/stat, for the benchmarks' CPU per message. */
public final class MachineCpu {

    /** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux everywhere that matters). */
    public static final double TICKS_PER_SECOND = 100;

    private MachineCpu() {
    }

    /** Busy clock ticks of all cores since boot: /proc/stat's cpu line but idle and iowait. */
    public static long busyTicks() throws IOException {
        String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long busy = 0;
        for (int i = 1; i < cpu.length && i <= 8; i++) {
            if (i != 4 && i != 5) {
                busy += Long.parseLong(cpu[i]);
            }
        }
        return busy;
    }

    /** Microseconds of CPU per message for a number of busy ticks spent on that many messages. */
    public static double microsPerMessage(double ticks, long messages) {
        return ticks * 1e6 / TICKS_PER_SECOND / messages;
    }
}
