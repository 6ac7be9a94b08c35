/** `npm run demo` (after the build): the same run as `dynalint demo`, from the source tree. */
import { demoCommand } from '../server/src/cli/demo';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
demoCommand(process.argv.slice(2), { cwd: process.cwd(), stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) }).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(e);
    process.exitCode = 2;
  },
);
