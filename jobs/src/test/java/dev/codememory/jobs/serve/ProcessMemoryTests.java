package dev.codememory.jobs.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

class ProcessMemoryTests {

    @Test
    void serveKeepsItsHeapNearWhatIsLiveAndCollectsWhenIdle() {
        ProcessMemory.keepHeapNearLive();

        HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        assertThat(vm.getVMOption("MinHeapFreeRatio").getValue()).isEqualTo("10");
        assertThat(vm.getVMOption("MaxHeapFreeRatio").getValue()).isEqualTo("20");
        assertThat(vm.getVMOption("G1PeriodicGCInterval").getValue()).isEqualTo(ProcessMemory.IDLE_COLLECTION_MS);
    }

}
