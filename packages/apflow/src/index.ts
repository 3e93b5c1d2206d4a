export * from "./validate.js";
