// libedit (Debian: libedit-dev): line editing and history for `stockpot shell` on a terminal,
// through its readline-compatible interface. <stdio.h> first: readline.h uses FILE.
#include <stdio.h>
#include <editline/readline.h>

// Names the program for libedit and leaves SIGINT to the shell's own handler (libedit's would
// re-raise the signal to the whole process group). Set here: Swift 6 cannot assign C globals.
static inline void stockpot_editline_setup(void) {
    rl_readline_name = "stockpot";
    rl_catch_signals = 0;
}
