do shell script "touch ~/Documents/today.txt"
