# shellcheck shell=bash
# The test command's last check: nothing a test made stays in the temporary folder. Sourced by scripts/test (its
# `leftovers` stage); Tests/Scripts/test_leftovers.py runs these functions on fake temporary folders.
#
# A run also builds, and the Swift toolchain writes into $TMPDIR of its own accord, with no test asking: on a machine
# whose temporary folder has never seen a Swift build, every suite passed and then this check failed on the
# toolchain's files. So what the toolchain leaves is told apart by what its programs name and put there, each kind
# judged by its name and its contents together (a test's file cannot pass for one by its name alone):
#
#   SwiftPM's lock files   `_root_.swiftpm.lock`, `_work_main_.build.lock`,
#                          `_root_.cache_org.swift.swiftpm_repositories_swift-nio-a9bb6d62.lock`: TSCBasic's
#                          FileLock.prepareLock puts the lock of a path in $TMPDIR, named by the path with its symlinks
#                          resolved, every `/` (and `:`) turned into `_`, the leading `/` dropped, and `.lock` added, so
#                          the name always begins with `_`; a name longer than NAME_MAX keeps its last 255 bytes, so one
#                          that long may begin with anything. The file is created, locked with flock and never written
#                          or removed: an empty regular file, used again by the next build (kept here). One for each
#                          path SwiftPM guards: ~/.swiftpm, its caches, each dependency's repository, the build folder,
#                          Package.resolved, the workspace state.
#   the driver's folders   `TemporaryDirectory.XXXXXX` (mkdtemp: six letters or digits): every swift-driver run, even
#                          `swiftc -print-target-info`, makes one for its file lists and writes an empty
#                          `.keep-directory` into it; a finished driver leaves it holding only that file, and SwiftPM's
#                          own in-process ones are left empty. Judged only when they hold nothing else; those are
#                          removed (a build makes many). One that still holds file lists (`sources-1`, `outputs-1`)
#                          belongs to a compile still running, which no stage of the test command is by now, so it
#                          counts.
#   the compiler's macro   `swift-generated-sources`: swift-frontend writes each macro expansion it emits debug
#   expansions             information or a diagnostic for into $TMPDIR/swift-generated-sources/, one file per
#                          expansion named by its mangled name (`@__swiftmacro_7Logging0017Loggerswift_….swift`), and
#                          never removes them (the next compile rewrites the same names). Judged only when every entry
#                          is such a file (kept).
#
# Nothing else the toolchain runs leaves anything there once it has ended normally: clang's and the Swift frontend's
# implicit module caches are under ~/.cache/clang (old clangs kept theirs in the temporary folder as
# org.llvm.clang.USER; the Swift 6 toolchains' do not, and SwiftPM gives its builds one in .build), SwiftPM's caches
# and Foundation's URL cache are under ~/.cache and ~/.swiftpm, and the compilers' and the linker's temporary files are
# removed by the program that made them. Anything else new, including any of the names above with other contents,
# counts.

# toolchain_leftover FOLDER NAME: whether FOLDER/NAME is one of the toolchain's own, by the rules above. When it is,
# prints its kind (swiftpm-lock, driver-folder or macro-expansions) and returns 0; otherwise returns 1.
toolchain_leftover() {
    local path="$1/$2" name="$2" entry
    # Byte lengths and patterns as the file system has them, whatever the locale.
    local LC_ALL=C
    if [[ "$name" == *.lock && ("$name" == _* || ${#name} -eq 255) ]]; then
        if [ -f "$path" ] && [ ! -L "$path" ] && [ ! -s "$path" ]; then
            echo swiftpm-lock
            return 0
        fi
        return 1
    fi
    if [[ "$name" =~ ^TemporaryDirectory\.[A-Za-z0-9]{6}$ ]]; then
        [ -d "$path" ] && [ ! -L "$path" ] || return 1
        for entry in "$path"/* "$path"/.[!.]* "$path"/..?*; do
            [ -e "$entry" ] || [ -L "$entry" ] || continue
            if [ "${entry##*/}" != .keep-directory ] || [ ! -f "$entry" ] || [ -L "$entry" ] || [ -s "$entry" ]; then
                return 1
            fi
        done
        echo driver-folder
        return 0
    fi
    if [ "$name" = swift-generated-sources ]; then
        [ -d "$path" ] && [ ! -L "$path" ] || return 1
        for entry in "$path"/* "$path"/.[!.]* "$path"/..?*; do
            [ -e "$entry" ] || [ -L "$entry" ] || continue
            if [[ "${entry##*/}" != @__swiftmacro_*.swift ]] || [ ! -f "$entry" ] || [ -L "$entry" ]; then
                return 1
            fi
        done
        echo macro-expansions
        return 0
    fi
    return 1
}

# temporary_leftovers FOLDER LISTING: judges what is in FOLDER now and was not in LISTING (its `ls -A` taken before the
# run). The toolchain's own are passed over (its spent driver folders removed); anything else is printed, one path a
# line on stderr, and the return status is 1.
temporary_leftovers() {
    local folder="${1%/}" listing="$2" entry kind new=()
    while IFS= read -r entry; do
        [ -n "$entry" ] || continue
        if kind="$(toolchain_leftover "$folder" "$entry")"; then
            if [ "$kind" = driver-folder ]; then
                rm -rf "${folder:?}/$entry"
            fi
            continue
        fi
        new+=("$entry")
    done < <(LC_ALL=C comm -13 <(LC_ALL=C sort "$listing") \
        <(find -H "$folder" -mindepth 1 -maxdepth 1 -printf '%f\n' | LC_ALL=C sort))
    if ((${#new[@]})); then
        printf '  %s\n' "${new[@]/#/$folder/}" >&2
        echo "test: the run left these in the temporary folder; the test that made each must remove it" >&2
        return 1
    fi
}
