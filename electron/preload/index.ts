import { contextBridge, ipcRenderer } from 'electron';
import { PORT_DELIVERY_CHANNEL, PORT_REQUEST_CHANNEL, type MonitorApi } from '../../shared/ipc/monitorApi.ts';
import { createMonitorClient, type WebPort } from './monitorClient.ts';

// Sandboxed preload: only contextBridge and ipcRenderer are used, and the port to the core stays
// in this closure. The page sees `window.monitor` with two functions and nothing else.
const client = createMonitorClient({ requestPort: () => ipcRenderer.send(PORT_REQUEST_CHANNEL) });

ipcRenderer.on(PORT_DELIVERY_CHANNEL, (event) => {
  const port = event.ports[0];
  if (port) client.adoptPort(port as unknown as WebPort);
});

const monitor = {
  invoke: (channel, args) => client.api.invoke(channel, args),
  on: (event, listener) => client.api.on(event, listener),
} satisfies MonitorApi;

contextBridge.exposeInMainWorld('monitor', monitor);
ipcRenderer.send(PORT_REQUEST_CHANNEL);
