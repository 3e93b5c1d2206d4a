export * from "./validate.js";
export { upgradeCreateRunBody } from "./upgrade.js";
