// Imported first by main.ts: V8 then reads the relay process's flags before any other module loads
// (a pretenuring decision taken while they load would outlive turning pretenuring off).
import { setRelayHeapFlags } from './infrastructure/relay-heap-flags';

setRelayHeapFlags();
