// halo-lin: runs a Moddable app built with `mcconfig -m -p lin` headless.
// mcconfig's lin target builds the app as a shared library (mc.so) that the
// SDK's GTK simulator (mcsim) loads. This program loads it the same way, but
// with no window: it gives the app a 1x1 "screen", drives its idle hook from
// a GLib timer, and runs the GLib main loop that the lin timers, sockets and
// promise jobs already use. trace() output goes to stdout.
//
// Build: make MODDABLE=/path/to/moddable   Run: ./halo-lin path/to/mc.so [data-folder]
// The app's preferences and card folder live in the data folder (the lin
// build's file root and storage root are "./"): the second argument, else
// $XDG_DATA_HOME/halo, else ~/.local/share/halo. It is created if missing.
// The button: SIGUSR1 is a short press, SIGUSR2 a double press. Each reaches
// the app as a message, the way the SDK's simulator delivers its panel's
// controls (`screen.onMessage`; hosts/device/ports/lin-button.ts).
#include <dlfcn.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "screen.h" // from $(MODDABLE)/build/simulators/modules

static GMainLoop *gLoop;
static guint gIdleSource;
static int gStatus = 0;
static txScreen *gScreen;

static gboolean onIdle(gpointer data)
{
	txScreen *screen = data;
	if (screen->idle)
		screen->idle(screen);
	return G_SOURCE_CONTINUE;
}

static void onStart(txScreen *screen, double interval)
{
	if (gIdleSource)
		g_source_remove(gIdleSource);
	gIdleSource = g_timeout_add(interval > 1 ? (guint)interval : 1, onIdle, screen);
}

static void onStop(txScreen *screen)
{
	(void)screen;
	if (gIdleSource)
		g_source_remove(gIdleSource);
	gIdleSource = 0;
}

static void onAbort(txScreen *screen, int status)
{
	(void)screen;
	fprintf(stderr, "halo-lin: the app aborted (XS status %d)\n", status);
	gStatus = 70;
	// An abort while the app starts comes before the loop runs, where a quit
	// would be lost: main() checks gStatus after launching instead.
	if (g_main_loop_is_running(gLoop))
		g_main_loop_quit(gLoop);
}

static void onNothing(txScreen *screen) { (void)screen; }

static void onPost(txScreen *screen, char *message, int size)
{
	(void)screen;
	(void)message;
	(void)size;
}

static gboolean onSignal(gpointer data)
{
	(void)data;
	g_main_loop_quit(gLoop);
	return G_SOURCE_REMOVE;
}

// GLib runs this on the main loop (not in the signal handler), where the app
// may be called: the message goes to `screen.onMessage` as a string.
static gboolean onGesture(gpointer data)
{
	static char press[] = "button:press";
	static char doublePress[] = "button:double-press";
	txScreen *screen = gScreen;
	if (screen && screen->machine && screen->invoke)
		screen->invoke(screen, data == (gpointer)1 ? press : doublePress, 0);
	return G_SOURCE_CONTINUE;
}

// The lin runtime's Math.random is libc rand(), never seeded: seed it so that
// two runs differ. This does not make rand() a cryptographic generator.
static void seedRand(void)
{
	unsigned int seed;
	if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = (unsigned int)time(NULL);
	srand(seed);
}

// Creates `path` and its parents (mode 0700 for new folders); 0 on success.
static int makeFolders(const char *path)
{
	char buffer[4096];
	if (strlen(path) >= sizeof(buffer))
		return -1;
	strcpy(buffer, path);
	for (char *p = buffer + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buffer, 0700) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buffer, 0700) != 0 && errno != EEXIST ? -1 : 0;
}

// The data folder: the argument, else $XDG_DATA_HOME/halo, else ~/.local/share/halo.
static const char *dataFolder(const char *given, char *buffer, size_t size)
{
	if (given)
		return given;
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	if (xdg && *xdg)
		snprintf(buffer, size, "%s/halo", xdg);
	else if (home && *home)
		snprintf(buffer, size, "%s/.local/share/halo", home);
	else
		return NULL;
	return buffer;
}

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: %s path/to/mc.so [data-folder]\n", argv[0]);
		return 64;
	}
	void *library = dlopen(argv[1], RTLD_NOW);
	if (!library) {
		fprintf(stderr, "halo-lin: %s\n", dlerror());
		return 66;
	}
	txScreenLaunchProc launch = (txScreenLaunchProc)dlsym(library, "fxScreenLaunch");
	if (!launch) {
		fprintf(stderr, "halo-lin: %s\n", dlerror());
		return 66;
	}
	char defaultFolder[4096];
	const char *folder = dataFolder(argc == 3 ? argv[2] : NULL, defaultFolder, sizeof(defaultFolder));
	if (!folder || makeFolders(folder) != 0 || chdir(folder) != 0) {
		fprintf(stderr, "halo-lin: cannot use the data folder %s\n", folder ? folder : "(no HOME)");
		return 73;
	}
	printf("halo-lin: data folder %s\n", folder);
	txScreen *screen = calloc(1, sizeof(txScreen) + screenBytesPerPixel);
	if (!screen)
		return 71;
	screen->width = 1;
	screen->height = 1;
	screen->abort = onAbort;
	screen->bufferChanged = onNothing;
	screen->formatChanged = onNothing;
	screen->post = onPost;
	screen->start = onStart;
	screen->stop = onStop;
	mxCreateMutex(&screen->workersMutex);

	// A client that hangs up mid-response must cost the app an error on that
	// socket, not the process: writes then fail with EPIPE instead.
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	seedRand();
	gLoop = g_main_loop_new(NULL, FALSE);
	g_unix_signal_add(SIGINT, onSignal, NULL);
	g_unix_signal_add(SIGTERM, onSignal, NULL);
	gScreen = screen;
	g_unix_signal_add(SIGUSR1, onGesture, (gpointer)1);
	g_unix_signal_add(SIGUSR2, onGesture, (gpointer)2);

	launch(screen);
	if (!screen->machine) {
		fprintf(stderr, "halo-lin: the app did not start\n");
		return 70;
	}
	if (gStatus == 0)
		g_main_loop_run(gLoop);

	if (screen->quit)
		screen->quit(screen);
	return gStatus;
}
