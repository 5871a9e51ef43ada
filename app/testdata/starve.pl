# An action that tries to starve the kill switch. Test data: run only by
# TestKillSwitchCannotBeStarved, as `perl starve.pl SOCKET FIFO MODE N`.
#
# It opens N connections to the gate's socket and holds them:
#   idle  each makes one status call (so the gate counts it) and then sits
#         there, as a client that never sends its next frame
#   busy  each sends a submit that stays in flight (it waits for the
#         executor, which this very action holds)
# A connection the gate refuses is kept too. Then it writes "ready PID OK"
# to FIFO (which the test reads), OK being how many connections the gate
# served, and sleeps, holding them all.

use strict;
use warnings;
use IO::Socket::UNIX;

my ($socket, $fifo, $mode, $n) = @ARGV;
$SIG{PIPE} = 'IGNORE';    # a refused connection is closed under our feet
my $status = '{"jsonrpc":"2.0","id":1,"method":"status"}';
my $submit = '{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"starve","kind":"command","argv":["true"]}}';

my @held;
my $served = 0;
for my $i (1 .. $n) {
	my $c = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Peer => $socket)
		or next;
	$c->autoflush(1);
	print $c ($mode eq 'busy' ? $submit : $status), "\n";
	my $first = <$c>;    # the answer, the submit's first event, or a refusal
	$served++ if defined $first && $first !~ /"error"/;
	push @held, $c;
}

open(my $ready, '>', $fifo) or die "$fifo: $!\n";
print $ready "ready $$ $served\n";
close $ready;
sleep 300;
