#!/usr/bin/env node
// The `flowspec-codegen` bin is this committed file, not dist/bin.js: `npm ci` links a workspace's
// bins before anything is built and skips those whose file is missing, after which
// `npx flowspec-codegen` in the checkout would fetch a package of that name from the registry.
import "../dist/bin.js";
