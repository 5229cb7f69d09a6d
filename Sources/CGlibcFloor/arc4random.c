/* arc4random(3) inside the executable, so that the release binary's glibc
   floor stays where the rest of it puts it (glibc 2.35, the wheel's
   manylinux_2_35 tag).

   scripts/release-build links libstdc++ statically: the loader then binds
   none of libstdc++.so's 3,200 symbol relocations at start (a third of a
   cold ping's instructions) and the binary runs where no libstdc++ is
   installed. GCC 12's libstdc++.a refers to arc4random, which glibc has only
   from 2.36, through std::random_device (random.o, pulled in by the
   copy-on-write string instantiations); nothing in the worker makes a
   random_device. The link binds that reference to this definition, hidden
   so that it is not exported, instead of to arc4random@GLIBC_2.36.

   The same contract as glibc's: 32 bits from the kernel's generator
   (getrandom(2), glibc 2.25), never failing; a kernel without getrandom is
   older than any glibc the binary runs on supports. */

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/random.h>

__attribute__((visibility("hidden"))) uint32_t arc4random(void) {
    uint32_t value = 0;
    size_t filled = 0;
    while (filled < sizeof value) {
        ssize_t got = getrandom((unsigned char *)&value + filled, sizeof value - filled, 0);
        if (got > 0) {
            filled += (size_t)got;
        } else if (got < 0 && errno != EINTR) {
            __builtin_trap();
        }
    }
    return value;
}
