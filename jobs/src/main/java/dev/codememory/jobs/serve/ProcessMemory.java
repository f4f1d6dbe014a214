package dev.codememory.jobs.serve;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How serve, a process that lives for days and is idle between prompts, gives memory back
 * to the user: a heap kept near what is live, a full collection after start-up work, and
 * the C heap's free memory returned. Each is a request to the JVM; where the JVM or the C
 * library cannot do it, nothing changes.
 */
final class ProcessMemory {

    private static final Logger log = LoggerFactory.getLogger(ProcessMemory.class);

    private ProcessMemory() {
    }

    /**
     * A full collection once the start-up work is done: reading the model file and
     * building the indexes leave several hundred MB of garbage that the heap would
     * otherwise keep committed for the life of the process (measured on a small home: 977
     * MB resident before, 501 MB after). With {@link #keepHeapNearLive} the collection
     * also gives the heap back down to a little above what is live; then the C heap is
     * trimmed ({@link #trimNativeHeap}).
     */
    static void returnGarbage() {
        System.gc();
        trimNativeHeap();
    }

    /**
     * Asks the C library to give the operating system back the free memory of its heap
     * ({@code malloc_trim}, through the JVM's {@code System.trim_native_heap} command:
     * Linux with glibc, Java 17.0.9 and later; elsewhere nothing happens). What ONNX
     * Runtime's embedding batches and DuckDB's reads freed otherwise stays resident:
     * measured after a graduation's worth of batches, 280 MB resident, 174 MB trimmed.
     */
    static void trimNativeHeap() {
        try {
            Object out = java.lang.management.ManagementFactory.getPlatformMBeanServer()
                .invoke(new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"),
                        "systemTrimNativeHeap", new Object[] { null }, new String[] { String[].class.getName() });
            log.debug("{}", String.valueOf(out).strip());
        }
        catch (javax.management.JMException | RuntimeException e) {
            log.debug("the C heap cannot be trimmed here: {}", e.getMessage());
        }
    }

    /**
     * After this long without a collection, G1 collects and gives back what the heap does
     * not need.
     */
    static final String IDLE_COLLECTION_MS = "60000";

    /**
     * Asks the JVM to keep, after a collection that sizes the heap, at most 20% of it
     * free (and at least 10%) instead of 70% (40%), and to run such a collection after a
     * minute without one (G1's periodic collection, JEP 346): serve lives for days
     * holding mostly long-lived indexes, and between prompts it is idle, so the room the
     * young generation grew to while it answered is memory taken from the user for
     * nothing (100k memories: 1.6 GB committed for 0.5 GB live; measured in a probe with
     * 300 MB live after 3 GB of garbage: 1,940 MB resident, 433 MB after 15 s idle with a
     * 5 s period, 1,111 MB without). The flags are manageable at run time; on a JVM
     * without them nothing changes.
     */
    static void keepHeapNearLive() {
        try {
            com.sun.management.HotSpotDiagnosticMXBean vm = java.lang.management.ManagementFactory
                .getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            vm.setVMOption("MinHeapFreeRatio", "10"); // first: the maximum may not go
                                                      // below the minimum
            vm.setVMOption("MaxHeapFreeRatio", "20");
            vm.setVMOption("G1PeriodicGCInterval", IDLE_COLLECTION_MS);
        }
        catch (RuntimeException e) {
            log.debug("heap free ratios left at the JVM's defaults: {}", e.getMessage());
        }
    }

}
