import sys


def main():
    # TODO: generate the maze
    print("Error: something went wrong")
    return 1


if __name__ == "__main__":
    sys.exit(main())
