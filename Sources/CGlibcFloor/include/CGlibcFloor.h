#ifndef BOXOFFICE_CGLIBCFLOOR_H
#define BOXOFFICE_CGLIBCFLOOR_H

/* Nothing to call from Swift: this target only defines, inside the
   executable, a glibc function that the statically linked libstdc++ refers
   to (arc4random.c says why). */

#endif
