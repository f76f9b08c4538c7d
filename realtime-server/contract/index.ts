// The one place web and server share: request schemas, DTOs, event names and payloads.
export * from './enums';
export * from './common';
export * from './geo';
export * from './auth';
export * from './users';
export * from './ambulances';
export * from './callLife';
export * from './callLifeSchemas';
export * from './location';
export * from './locationSchemas';
export * from './locationText';
export * from './cases';
export * from './trail';
export * from './tracking';
export * from './timeline';
export * from './events';
