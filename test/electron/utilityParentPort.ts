// Loaded with `--import` into the Node child that plays an Electron utility process (see
// FakeUtilityProcess.runReal): `process.parentPort` as lib/utility/parent-port.ts and
// lib/utility/init.ts define it, relayed over Node's IPC channel. Messages arrive as
// `{ data, ports }` (electron.d.ts ParentPort 'message'); ports cannot cross this channel.
import { EventEmitter } from 'node:events';

class ParentPort extends EventEmitter {
  postMessage(message: unknown): void {
    process.send?.(message);
  }
}

const parentPort = new ParentPort();
process.on('message', (data) => parentPort.emit('message', { data, ports: [] }));
// A utility process does not outlive its app.
process.on('disconnect', () => process.exit(0));
Object.defineProperty(process, 'parentPort', { enumerable: true, writable: false, value: parentPort });
