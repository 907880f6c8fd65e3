# shellcheck shell=bash
# The kernel words a generated boot line takes (./build.sh lava's two
# jobs, qemu/pxe's boot.ipxe and grub.cfg): wis.* keys, and these others
# only.  A LAVA job or a network boot config is run by somebody else's
# machine, so nothing else goes on it: no init=, rdinit= or a word the
# loader would read as its own (iPXE's and GRUB's ${...}, a newline).
# docs/security.md lists them; qemu/run, a guest of the caller's own,
# takes any word.
KERNEL_WORDS_ALLOWED=(console loglevel quiet transparent_hugepage lsm
	mitigations nosmt nokaslr isolcpus nohz_full rcu_nocbs idle
	processor.max_cstate intel_idle.max_cstate intel_pstate numa_balancing
	hugepages hugepagesz default_hugepagesz swiotlb)

# kernel_word_refused WORD: prints why WORD may not go on a generated
# boot line and succeeds, or fails when it may.  Checked as the loader
# will see it: letters, digits and _ . , : = / + - @ only.
kernel_word_refused() {
	local key=${1%%=*} allowed
	case $1 in
	'' | =* | *[!A-Za-z0-9_.,:=/+@-]*)
		printf "'%s': a generated boot line takes letters, digits and _ . , : = / + - @ only\n" "$1"
		return 0 ;;
	wis.*) return 1 ;;
	esac
	for allowed in "${KERNEL_WORDS_ALLOWED[@]}"; do
		[ "$key" != "$allowed" ] || return 1
	done
	printf "'%s': neither a wis.* key nor an allowed kernel word (%s)\n" \
		"$key" "${KERNEL_WORDS_ALLOWED[*]}"
	return 0
}
