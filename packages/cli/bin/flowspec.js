#!/usr/bin/env node
// The `flowspec` bin is this committed file, not dist/bin.js: `npm ci` links a workspace's bins
// before anything is built and skips those whose file is missing, after which `npx flowspec` in the
// checkout would fetch a package of that name from the registry instead of running this one.
import "../dist/bin.js";
