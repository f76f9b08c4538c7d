// The web's one door to the shared contract (the only server folder the web may import).
export * from '../../../realtime-server/contract';
