#!/usr/bin/env node
// `playground`: build, serve and mock an API description's reference and mock, on Node alone.
import { main } from "../src/main.js";

// The servers resolve once stopped; every command then ends here, whatever timers are left.
process.exit(await main(process.argv.slice(2)));
